import type { ModuleCatalogEntry, ModuleId, ModulePage } from '@dental/shared';
import { Button, Result, Spin } from '@dental/shared/ui';
import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useState,
} from 'react';
import { PermissionGate } from '../auth/PermissionGate';
import { FailureAdvice } from './FailureAdvice';
import { ModuleErrorBoundary } from './ModuleErrorBoundary';
import { reportModuleFailure } from './modulesApi';
import { useModulesStore } from './modulesStore';
import { reloadPage } from './pageReload';

const pageCache = new Map<string, LazyExoticComponent<ComponentType>>();

/**
 * A module built against newer shared code than this app provides is refused by the federation
 * runtime (strictVersion, docs/architecture.md, Module releases): it says so in these words.
 */
const BUILT_FOR_NEWER_APP = /does not satisfy the requirement of/;

function ModuleFailure({ title, error, onRetry }: { title: string; error: string; onRetry: () => void }) {
  if (BUILT_FOR_NEWER_APP.test(error))
    return (
      <Result
        status="warning"
        title={`The ${title} module was built for a newer version of the app`}
        subTitle={
          <FailureAdvice
            advice="It cannot run in this version; the rest of the app keeps working. Its release must be pointed back, or the app updated."
            error={error}
          />
        }
      />
    );
  return (
    <Result
      status="error"
      title={`The ${title} module could not be loaded`}
      subTitle={<FailureAdvice advice="The rest of the app keeps working." error={error} />}
      extra={
        <Button type="primary" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/** A screen's code that the browser could not download (rspack names the error so). */
const isChunkFailure = (error: Error) =>
  error.name === 'ChunkLoadError' || /Loading (CSS )?chunk/.test(error.message);
/** The page reloads at most once a minute for a module whose release changed under it: never a loop. */
const RELOAD_MARK = 'module-reloaded:';
const RELOAD_AGAIN_AFTER_MS = 60_000;

/**
 * A screen that failed inside the module's area. When its code could not be downloaded and the
 * module's entry has changed since the page loaded (another release was pointed at), the page loads
 * again, once, to run the new release (docs/architecture.md, Module releases); otherwise, the failure
 * and Retry.
 */
function ScreenFailure({
  moduleId,
  title,
  error,
  onRetry,
}: {
  moduleId: ModuleId;
  title: string;
  error: Error;
  onRetry: () => void;
}) {
  const entryChanged = useModulesStore((state) => state.entryChanged);
  const release = useModulesStore(
    (state) => state.entries.find((entry) => entry.id === moduleId)?.release ?? null,
  );
  const [checking, setChecking] = useState(isChunkFailure(error));
  useEffect(() => {
    const phase = isChunkFailure(error) ? 'screen' : 'render';
    if (!checking) reportModuleFailure({ module: moduleId, release, phase, message: error.message });
  }, [checking, error, moduleId, release]);
  useEffect(() => {
    if (!isChunkFailure(error)) return;
    let current = true;
    void entryChanged(moduleId).then((changed) => {
      const mark = `${RELOAD_MARK}${moduleId}`;
      const last = Number(sessionStorage.getItem(mark) ?? 0);
      if (changed && Date.now() - last > RELOAD_AGAIN_AFTER_MS) {
        sessionStorage.setItem(mark, String(Date.now()));
        reloadPage();
        return;
      }
      if (current) setChecking(false);
    });
    return () => {
      current = false;
    };
  }, [entryChanged, error, moduleId]);
  if (checking) return areaLoading;
  return <ModuleFailure title={title} error={error.message} onRetry={onRetry} />;
}

const areaLoading = (
  <div style={{ padding: 48, textAlign: 'center' }}>
    <Spin />
  </div>
);

interface ModuleAreaProps {
  moduleId: ModuleId;
  catalog: ModuleCatalogEntry;
  page: ModulePage;
}

/** One screen of a module: permission first, then the module's code, each failure kept in this area. */
export function ModuleArea(props: ModuleAreaProps) {
  return (
    <PermissionGate permission={props.page.permission} deniedMessage={props.page.deniedMessage}>
      <ModuleScreen {...props} />
    </PermissionGate>
  );
}

/** Loads the module on the first visit of one of its screens, then renders the screen. */
function ModuleScreen({ moduleId, catalog, page }: ModuleAreaProps) {
  const loadState = useModulesStore((state) => state.modules[moduleId]);
  const retry = useModulesStore((state) => state.retry);
  const ensureLoaded = useModulesStore((state) => state.ensureLoaded);
  const [attempt, setAttempt] = useState(0);

  // A preload that failed before this visit (or while it waited) is tried again, as a visit's load.
  const preloadFailed = loadState?.state === 'failed' && loadState.preloaded === true;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a preload's failure arriving is a reason to load again.
  useEffect(() => {
    void ensureLoaded(moduleId);
  }, [ensureLoaded, moduleId, preloadFailed]);

  let content: ReactNode;
  if (!loadState || loadState.state === 'loading' || preloadFailed) {
    content = areaLoading;
  } else if (loadState.state === 'failed') {
    content = (
      <ModuleFailure title={catalog.title} error={loadState.error} onRetry={() => void retry(moduleId)} />
    );
  } else {
    const loadScreen = loadState.description.screens[page.path];
    if (!loadScreen) {
      content = (
        <ModuleFailure
          title={catalog.title}
          error={`This version of the module has no ${page.label} page.`}
          onRetry={() => void retry(moduleId)}
        />
      );
    } else {
      // A rejected lazy() stays rejected: a retry needs a fresh one.
      const key = `${moduleId}:${page.path}:${loadState.description.buildTime}:${attempt}`;
      let Page = pageCache.get(key);
      if (!Page) {
        Page = lazy(loadScreen);
        pageCache.set(key, Page);
      }
      content = (
        <ModuleErrorBoundary
          key={key}
          fallback={(error, reset) => (
            <ScreenFailure
              moduleId={moduleId}
              title={catalog.title}
              error={error}
              onRetry={() => {
                setAttempt((n) => n + 1);
                reset();
              }}
            />
          )}
        >
          <Suspense fallback={areaLoading}>
            <Page />
          </Suspense>
        </ModuleErrorBoundary>
      );
    }
  }

  return content;
}
