import { hasPermission, type Permission, useAuthStore } from '@dental/shared';
import type { ReactNode } from 'react';
import { AccessDenied } from './AccessDenied';

export function PermissionGate({
  permission,
  deniedMessage,
  children,
}: {
  permission: Permission | null;
  deniedMessage?: string;
  children: ReactNode;
}) {
  const role = useAuthStore((state) => state.user?.role);
  if (!hasPermission(role, permission)) {
    return <AccessDenied permission={permission} role={role} message={deniedMessage} />;
  }
  return <>{children}</>;
}
