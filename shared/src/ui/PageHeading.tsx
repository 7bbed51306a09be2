import { Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A screen's one top heading: an `h1` for screen readers' outline (WCAG 1.3.1, 2.4.6), drawn at the
 * size of antd's second level so the screens keep their look.
 */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <Typography.Title level={1} style={{ margin: 0, fontSize: 30, lineHeight: 1.27 }}>
      {children}
    </Typography.Title>
  );
}
