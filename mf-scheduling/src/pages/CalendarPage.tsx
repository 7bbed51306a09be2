import { ModuleBuildInfo } from '@dental/shared/ui';

/** Calendar: reports which build of the module is serving it. */
export default function CalendarPage() {
  return (
    <ModuleBuildInfo
      title="Calendar"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
