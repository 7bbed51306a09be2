/**
 * The one build configuration factory: the shell and every `mf-*` module extend it, so that all
 * front-end packages agree on TSX compilation, CSS, output naming and — above all — on the list of
 * shared singletons that Module Federation negotiates at run time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Configuration, DefinePlugin, HtmlRspackPlugin } from '@rspack/core';

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
const sharedMajor = sharedPackage.version.split('.')[0];

/**
 * Singletons every container agrees on. `@dental/shared` is the contract between the shell and the
 * modules: a module states the major it was built against, and a breaking change is a new major.
 */
export const sharedSingletons = {
  react: { singleton: true, requiredVersion: `^${sharedDeps.react}` },
  'react/jsx-runtime': { singleton: true, requiredVersion: `^${sharedDeps.react}` },
  'react-dom': { singleton: true, requiredVersion: `^${sharedDeps['react-dom']}` },
  'react-dom/client': { singleton: true, requiredVersion: `^${sharedDeps['react-dom']}` },
  'react-router-dom': { singleton: true, requiredVersion: `^${sharedDeps['react-router-dom']}` },
  // react-router-dom 7 re-exports react-router, which the URL-state adapter imports by this name.
  'react-router': { singleton: true, requiredVersion: `^${sharedDeps['react-router-dom']}` },
  // One client of server state for every module: a module's write refreshes another's screen.
  '@tanstack/react-query': { singleton: true, requiredVersion: `^${sharedDeps['@tanstack/react-query']}` },
  zustand: { singleton: true, requiredVersion: `^${sharedDeps.zustand}` },
  axios: { singleton: true, requiredVersion: `^${sharedDeps.axios}` },
  '@dental/shared': { singleton: true, requiredVersion: `^${sharedMajor}.0.0` },
  '@dental/shared/domain': { singleton: true, requiredVersion: `^${sharedMajor}.0.0` },
  '@dental/shared/ui': { singleton: true, requiredVersion: `^${sharedMajor}.0.0` },
  '@dental/shared/kit': { singleton: true, requiredVersion: `^${sharedMajor}.0.0` },
};

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
        shared: sharedSingletons,
        manifest: isHost ? false : { fileName: 'mf-manifest.json' },
        dts: false,
        // The host provides the federation runtime once; each module's entry then carries only its
        // own container instead of another copy of the runtime (≈33 KB gzip per module).
        experiments: isHost ? { provideExternalRuntime: true } : { externalRuntime: true },
      }),
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
