import { Tag } from 'antd';
import type { ReactNode } from 'react';

/**
 * Whether a record is on (a patient or an account active, a chair in service, a recall type on): green
 * when on and plain when off, the same in every list and panel. The words are the screen's own.
 */
export function ActiveTag({ active, children }: { active: boolean; children: ReactNode }) {
  return <Tag color={active ? 'green' : 'default'}>{children}</Tag>;
}
