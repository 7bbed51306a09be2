/** Loads the whole page again (a module's new release); a module of its own so tests can watch it. */
export function reloadPage(): void {
  window.location.reload();
}
