import { ModuleBuildInfo } from '@dental/shared/ui';

/** Users: reports which build of the module is serving it. */
export default function UsersPage() {
  return (
    <ModuleBuildInfo
      title="Users"
      moduleName={__PACKAGE_NAME__}
      version={__PACKAGE_VERSION__}
      buildTime={__BUILD_TIME__}
    />
  );
}
