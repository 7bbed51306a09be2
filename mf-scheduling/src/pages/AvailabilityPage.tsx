import { ModuleBuildInfo } from '@dental/shared/ui';

/** Availability: reports which build of the module is serving it. */
export default function AvailabilityPage() {
  return (
    <ModuleBuildInfo
      title="Availability"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
