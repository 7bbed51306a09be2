import { type Permission, ROLE_LABELS, type Role } from '@dental/shared';
import { Button, Result } from '@dental/shared/ui';
import { useNavigate } from 'react-router-dom';

export interface AccessDeniedProps {
  permission: Permission | null;
  role: Role | undefined;
  message?: string;
}

/** Shown when the signed-in role lacks a page's permission (spec §2, protected-route behaviour). */
export function AccessDenied({ permission, role, message }: AccessDeniedProps) {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="Access Denied"
      subTitle={
        <div>
          <p>{message ?? "You don't have permission to access this page."}</p>
          <p>
            Required permission: <strong>{permission ?? 'signed in'}</strong>
          </p>
          <p>
            Your role: <strong>{role ? ROLE_LABELS[role] : 'unknown'}</strong>
          </p>
        </div>
      }
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          Go Back
        </Button>
      }
    />
  );
}
