import { Button, Result } from '@dental/shared/ui';
import { Link, useLocation } from 'react-router-dom';

/** Any path no screen answers (docs/product.md, Screens). */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <Result
      status="404"
      title={<h1 className="result-heading">Page not found</h1>}
      subTitle={
        <div>
          <p>
            Nothing is at <code data-testid="not-found-path">{location.pathname}</code>.
          </p>
          <p>
            Check the address, or use the sidebar: each area of the app has its own route, and an area your
            clinic has switched off has no page.
          </p>
        </div>
      }
      extra={
        <Link to="/">
          <Button type="primary">Go to Dashboard</Button>
        </Link>
      }
    />
  );
}
