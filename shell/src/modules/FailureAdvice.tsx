/** What to do about a failure, in plain words, with its technical cause folded away for support. */
export function FailureAdvice({ advice, error }: { advice: string; error: string | null }) {
  return (
    <div className="module-failure">
      <p>{advice} Try again in a moment; if this keeps happening, tell your clinic's administrator.</p>
      {error && (
        <details>
          <summary>Technical details</summary>
          <code>{error}</code>
        </details>
      )}
    </div>
  );
}
