/** Shown while the session is being restored (docs/product.md, Screens, protected-route behaviour). */
export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status">
      Loading...
    </div>
  );
}
