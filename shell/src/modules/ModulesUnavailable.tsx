import { Button, Result } from '@dental/shared/ui';
import { useModulesStore } from './modulesStore';

/**
 * The clinic's list of modules could not be read: which areas exist is unknown, so a module's page is
 * neither shown nor called missing. Retry reads the list again.
 */
export function ModulesUnavailable() {
  const error = useModulesStore((state) => state.error);
  const load = useModulesStore((state) => state.load);
  return (
    <Result
      status="warning"
      title="The areas of the app could not be loaded"
      subTitle={
        <div className="module-failure">
          <p>
            The dashboard still works. Try again in a moment; if this keeps happening, tell your clinic's
            administrator.
          </p>
          {error && (
            <details>
              <summary>Technical details</summary>
              <code>{error}</code>
            </details>
          )}
        </div>
      }
      extra={
        <Button type="primary" onClick={() => void load()}>
          Retry
        </Button>
      }
    />
  );
}
