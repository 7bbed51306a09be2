/** Constants the build injects (rspack.config.base.ts). */
declare const __PACKAGE_NAME__: string;
declare const __PACKAGE_VERSION__: string;
declare const __BUILD_TIME__: string;

/** Stylesheets are bundled by rspack (`css/auto`). */
declare module '*.css';
