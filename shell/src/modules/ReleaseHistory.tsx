import type { ModuleEntry, ModuleReleaseEvent, ModuleReleasesAnswer } from '@dental/shared';
import { formatDateTime } from '@dental/shared/kit';
import { ErrorBanner, Spin, Typography } from '@dental/shared/ui';
import { Modal } from '@dental/shared/ui/forms';
import { useEffect, useState } from 'react';
import { fetchModuleReleases } from './modulesApi';

const ACTIONS: Record<ModuleReleaseEvent['action'], string> = {
  published: 'Published',
  pointed: 'Pointed',
  unpointed: 'Follows the default again',
};

/** Which release the clinic runs and why: its own pointer, the default's, or the build in place. */
export function runsWhat(answer: ModuleReleasesAnswer): string {
  if (answer.clinic_release) return `${answer.clinic_release}, this clinic's own release`;
  if (answer.default_release) return `${answer.default_release}, the default release`;
  return 'The build in place (no release published for it)';
}

const eventWords = (event: ModuleReleaseEvent) =>
  event.action === 'published'
    ? `Published ${event.release}`
    : event.action === 'pointed'
      ? `${event.clinic ? 'This clinic' : 'The default'} pointed at ${event.release}`
      : `${ACTIONS.unpointed} (left ${event.release})`;

/**
 * A module's releases as the clinic's admin reads them (docs/product.md, Modules): the release this
 * clinic runs, and the history of publishes and of the default's and this clinic's pointers.
 */
export function ReleaseHistory({ module, onClose }: { module: ModuleEntry | null; onClose: () => void }) {
  const [answer, setAnswer] = useState<ModuleReleasesAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    if (!module) return;
    let current = true;
    fetchModuleReleases(module.id).then(
      (read) => current && setAnswer(read),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [module]);

  return (
    <Modal open={!!module} title={module ? `${module.title}: releases` : ''} onCancel={onClose} footer={null}>
      <ErrorBanner message={error} />
      {!answer && !error && <Spin aria-label="Loading the releases" />}
      {answer && (
        <>
          <Typography.Paragraph>
            <strong>Runs:</strong> {runsWhat(answer)}
          </Typography.Paragraph>
          {answer.events.length === 0 ? (
            <Typography.Text type="secondary">Nothing published yet</Typography.Text>
          ) : (
            <ol aria-label="Release history" className="release-history">
              {answer.events.map((event) => (
                <li key={event.id}>
                  {eventWords(event)}
                  <br />
                  <Typography.Text type="secondary">
                    {formatDateTime(event.at)} · {event.actor}
                  </Typography.Text>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </Modal>
  );
}
