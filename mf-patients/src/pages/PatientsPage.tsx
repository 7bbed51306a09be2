import { ModuleBuildInfo } from '@dental/shared/ui';

/** Patients: reports which build of the module is serving it. */
export default function PatientsPage() {
  return (
    <ModuleBuildInfo
      title="Patients"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
