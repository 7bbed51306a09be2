/**
 * Keeps Tab inside an open dialog (antd's Modal and Drawer). antd pulls the focus back once it has
 * left a dialog (a focusin listener), but Tab from a dialog's last control, with nothing focusable
 * after the dialog in the page, takes the focus out of the document: the user lands on the page's
 * <body> and needs another Tab to come back. Here Tab from the last control goes straight to the
 * first, and Shift+Tab from the first to the last.
 */
export function keepTabInDialogs(target: Document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
      return;
    const active = target.activeElement;
    const dialog = active instanceof HTMLElement ? active.closest<HTMLElement>('[role="dialog"]') : null;
    if (!dialog) return;
    const stops = tabStopsOf(dialog);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    } else if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    }
  };
  target.addEventListener('keydown', onKeyDown);
  return () => target.removeEventListener('keydown', onKeyDown);
}

const FOCUSABLE =
  'a[href], button, input, select, textarea, [tabindex], [contenteditable="true"], summary, iframe';

/** The elements Tab stops at inside `root`, in document order (positive tabindex is not used here). */
function tabStopsOf(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(':disabled') &&
      !(element instanceof HTMLInputElement && element.type === 'hidden') &&
      !element.closest('[inert], [aria-hidden="true"]') &&
      isShown(element),
  );
}

/** Rendered and not hidden: the browser's own answer where it has one, else the computed styles. */
function isShown(element: HTMLElement): boolean {
  if (typeof element.checkVisibility === 'function')
    return element.checkVisibility({ visibilityProperty: true });
  if (getComputedStyle(element).visibility === 'hidden') return false;
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (getComputedStyle(node).display === 'none') return false;
  }
  return true;
}
