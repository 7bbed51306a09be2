import type { CSSProperties, ReactNode } from 'react';

/** A 1 px clipped box: out of sight, still in the page, so screen readers read it. */
const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** Text for screen readers only: what a sighted user gets from the layout or a colour. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span style={VISUALLY_HIDDEN}>{children}</span>;
}
