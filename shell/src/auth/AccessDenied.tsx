import { hasPermission, type Permission, ROLE_LABELS, ROLES, type Role } from '@dental/shared';
import { Button, Result } from '@dental/shared/ui';
import { useLocation, useNavigate } from 'react-router-dom';

export interface AccessDeniedProps {
  permission: Permission | null;
  role: Role | undefined;
  message?: string;
}

/** Which roles hold a permission, for the person reading the refusal: "all" means administrators. */
function holdersOf(permission: Permission): string {
  return ROLES.filter((role) => hasPermission(role, permission))
    .map((role) => ROLE_LABELS[role])
    .join(', ');
}

/** Shown when the signed-in role lacks a page's permission (docs/product.md, Screens, protected-route behaviour). */
export function AccessDenied({ permission, role, message }: AccessDeniedProps) {
  const navigate = useNavigate();
  const location = useLocation();
  // The first page of this tab (opened from a link or typed) has nothing of ours to go back to: the
  // router names that entry 'default'. The dashboard then.
  const goBack = () => {
    if (location.key !== 'default') navigate(-1);
    else navigate('/', { replace: true });
  };
  return (
    <Result
      status="403"
      title={<h1 className="result-heading">Access Denied</h1>}
      subTitle={
        <div>
          <p>{message ?? "You don't have permission to access this page."}</p>
          <p>
            Required permission: <strong>{permission ?? 'signed in'}</strong>
            {permission && <> (held by: {holdersOf(permission)})</>}
          </p>
          <p>
            Your role: <strong>{role ? ROLE_LABELS[role] : 'unknown'}</strong>
          </p>
        </div>
      }
      extra={
        <Button type="primary" onClick={goBack}>
          Go Back
        </Button>
      }
    />
  );
}
