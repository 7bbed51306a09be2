/**
 * The one build configuration factory: the shell and every `mf-*` module extend it, so that all
 * front-end packages agree on TSX compilation, CSS, output naming and — above all — on the list of
 * shared singletons that Module Federation negotiates at run time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Compiler, type Configuration, DefinePlugin, HtmlRspackPlugin } from '@rspack/core';

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

const sharedPackage = readPackageJson(path.join(__dirname, 'shared'));
const sharedDeps = sharedPackage.dependencies ?? {};
/** A module needs the shared package's minor it was built against, or a later one of that major. */
const sharedRange = `^${sharedPackage.version}`;

/**
 * Singletons every container agrees on (docs/architecture.md, Module releases). `@dental/shared` is
 * the contract between the shell and the modules: a new export is a new minor, and a module requires
 * the minor it was built against. With `strictVersion`, a module whose needs the shell does not meet
 * fails to load alone, with a message, instead of failing later while it renders.
 */
const strict = (version: string | undefined) => ({
  singleton: true,
  requiredVersion: `^${version}`,
  strictVersion: true,
});
export const sharedSingletons = {
  react: strict(sharedDeps.react),
  'react/jsx-runtime': strict(sharedDeps.react),
  'react-dom': strict(sharedDeps['react-dom']),
  'react-dom/client': strict(sharedDeps['react-dom']),
  'react-router-dom': strict(sharedDeps['react-router-dom']),
  // react-router-dom 7 re-exports react-router, which the URL-state adapter imports by this name.
  'react-router': strict(sharedDeps['react-router-dom']),
  // One client of server state for every module: a module's write refreshes another's screen.
  '@tanstack/react-query': strict(sharedDeps['@tanstack/react-query']),
  zustand: { singleton: true, requiredVersion: `^${sharedDeps.zustand}` },
  axios: { singleton: true, requiredVersion: `^${sharedDeps.axios}` },
  '@dental/shared': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  // What the sign-in page needs, without the rest of the contract (its reads, the query library).
  '@dental/shared/session': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  '@dental/shared/domain': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  '@dental/shared/ui': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  // The kit's forms, lists and two-step sign-in load with the first screen that draws one.
  '@dental/shared/ui/forms': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  '@dental/shared/ui/lists': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  '@dental/shared/ui/second-factor': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
  '@dental/shared/kit': { singleton: true, requiredVersion: sharedRange, strictVersion: true },
};

/**
 * A module takes `@dental/shared` and its entries only from the shell, and builds no copy of its own
 * (`import: false`): the shell loads a kit entry (forms, lists) only when a screen first needs it, and
 * a module's copy offered before then would be a second antd beside the shell's, outside its theme.
 */
function consumedFromTheShell(shared: typeof sharedSingletons): Record<string, object> {
  return Object.fromEntries(
    Object.entries(shared).map(([name, config]) => [
      name,
      name.startsWith('@dental/shared') ? { ...config, import: false } : config,
    ]),
  );
}

/** The installed version of a shared package (its package.json), as the shell provides it. */
function installedVersion(name: string): string {
  if (name.startsWith('@dental/shared')) return sharedPackage.version;
  const parts = name.split('/');
  const base = name.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? name);
  const file = require.resolve(`${base}/package.json`, { paths: [path.join(__dirname, 'shell')] });
  return readPackageJson(path.dirname(file)).version;
}

/**
 * The shell's build writes what it provides of each shared package (`provides.json`): publishing a
 * module checks the module's needs against it (server/src/resources/modules/releaseFiles.ts).
 */
class ShellProvidesPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('ShellProvidesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap('ShellProvidesPlugin', () => {
        const provides = Object.fromEntries(
          Object.keys(sharedSingletons).map((name) => [name, installedVersion(name)]),
        );
        compilation.emitAsset(
          'provides.json',
          new compiler.webpack.sources.RawSource(`${JSON.stringify(provides, null, 2)}\n`),
        );
      });
    });
  }
}

export interface FrontendPackageOptions {
  /** The package folder (pass `__dirname`). */
  dir: string;
  /** Federation container name; must be an identifier, e.g. `mf_patients`. */
  containerName: string;
  /** Port of the package's own dev server. */
  devPort: number;
  /** Modules expose `./module`; the host exposes nothing. */
  exposes?: Record<string, string>;
  /** The host renders its HTML pages; modules only publish their manifest and chunks. */
  isHost?: boolean;
  /** The host's pages: each an entry of its own and the HTML page that loads only that entry. */
  pages?: ReadonlyArray<{ name: string; entry: string; template: string; filename: string; title: string }>;
}

export function createFrontendConfig(options: FrontendPackageOptions): Configuration {
  const { dir, containerName, devPort, exposes, isHost = false, pages = [] } = options;
  const pkg = readPackageJson(dir);
  const production = process.env.NODE_ENV !== 'development';
  const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

  return {
    context: dir,
    mode: production ? 'production' : 'development',
    devtool: production ? false : 'eval-cheap-module-source-map',
    // A module publishes only its federation container; the host has an entry per page.
    entry: Object.fromEntries(pages.map((page) => [page.name, page.entry])),
    output: {
      path: path.join(dir, 'dist'),
      // The host lives at the site root; a module's chunks resolve relative to its own entry.
      publicPath: isHost ? '/' : 'auto',
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      cssFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      cssChunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      uniqueName: containerName,
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !production } },
            },
            env: { targets: 'chrome >= 111, firefox >= 115, safari >= 16.4' },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css/auto' },
      ],
    },
    plugins: [
      new DefinePlugin({
        __PACKAGE_NAME__: JSON.stringify(pkg.name),
        __PACKAGE_VERSION__: JSON.stringify(pkg.version),
        __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
        'process.env.API_BASE_URL': JSON.stringify(process.env.API_BASE_URL ?? ''),
        'process.env.API_TIMEOUT': JSON.stringify(process.env.API_TIMEOUT ?? ''),
      }),
      new ModuleFederationPlugin({
        name: containerName,
        filename: isHost ? undefined : 'remoteEntry.js',
        exposes,
        remotes: {},
        shared: isHost ? sharedSingletons : consumedFromTheShell(sharedSingletons),
        // A singleton the shell has loaded stays the one every module gets: a module that brings a
        // newer copy is refused by strictVersion rather than loading a second copy beside it.
        shareStrategy: 'loaded-first',
        manifest: isHost ? false : { fileName: 'mf-manifest.json' },
        dts: false,
        // The host provides the federation runtime once; each module's entry then carries only its
        // own container instead of another copy of the runtime (≈33 KB gzip per module).
        experiments: isHost ? { provideExternalRuntime: true } : { externalRuntime: true },
      }),
      ...(isHost ? [new ShellProvidesPlugin()] : []),
      ...pages.map(
        (page) =>
          new HtmlRspackPlugin({
            template: page.template,
            filename: page.filename,
            title: page.title,
            chunks: [page.name],
            inject: 'body',
          }),
      ),
    ],
    performance: { hints: false },
    devServer: {
      port: devPort,
      hot: false,
      // The patients' pages are book.html; every other path is the staff app's page.
      historyApiFallback: isHost ? { rewrites: [{ from: /^\/book\//, to: '/book.html' }] } : false,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [{ context: ['/api', '/auth', '/modules'], target: apiTarget }],
    },
  };
}
