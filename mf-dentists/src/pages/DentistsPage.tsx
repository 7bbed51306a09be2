import { ModuleBuildInfo } from '@dental/shared/ui';

/** Dentists: reports which build of the module is serving it. */
export default function DentistsPage() {
  return (
    <ModuleBuildInfo
      title="Dentists"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
