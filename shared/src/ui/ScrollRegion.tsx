import type { ReactNode } from 'react';

/**
 * A wide table's box, which a narrow screen scrolls sideways. When the table holds no control of
 * its own (read-only rows), the keyboard could not reach the hidden columns: the box itself takes
 * the focus, named for screen readers, so arrow keys scroll it (WCAG 2.1.1, axe
 * scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the reason is the component's (above)
    <section aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </section>
  );
}
