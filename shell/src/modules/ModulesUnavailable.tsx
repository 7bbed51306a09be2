import { Button, Result } from '@dental/shared/ui';
import { FailureAdvice } from './FailureAdvice';
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
      subTitle={<FailureAdvice advice="The dashboard still works." error={error} />}
      extra={
        <Button type="primary" onClick={() => void load()}>
          Retry
        </Button>
      }
    />
  );
}
