import { ModuleBuildInfo } from '@dental/shared/ui';

/** Appointments: reports which build of the module is serving it. */
export default function AppointmentsPage() {
  return (
    <ModuleBuildInfo
      title="Appointments"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
