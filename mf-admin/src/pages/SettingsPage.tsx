import { ModuleBuildInfo } from '@dental/shared/ui';

/** Settings: reports which build of the module is serving it. */
export default function SettingsPage() {
  return (
    <ModuleBuildInfo
      title="Settings"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
