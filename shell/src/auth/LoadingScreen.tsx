/** Shown while the session is being restored (spec §2, protected-route behaviour). */
export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status">
      Loading...
    </div>
  );
}
