import { defineModule } from '@dental/shared';

/** The module's description (its `./module` entry): it has no staff screen, only the patients' pages (`./public`). */
export default defineModule('booking', { version: __PACKAGE_VERSION__, buildTime: __BUILD_TIME__ }, {});
