#!/usr/bin/env node
/**
 * Builds the shell and every module. `--if-needed` skips a package whose build is newer than its
 * sources (and than the shared code and base config every package compiles in), so `npm start`
 * builds only what is missing or stale. Package names may be passed to build only those.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FRONTEND_PACKAGES = [
  'shell',
  'mf-appointments',
  'mf-patients',
  'mf-dentists',
  'mf-scheduling',
  'mf-admin',
  'mf-booking',
];

const args = process.argv.slice(2);
const ifNeeded = args.includes('--if-needed');
const requested = args.filter((arg) => !arg.startsWith('--'));
const packages = requested.length > 0 ? requested : FRONTEND_PACKAGES;

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function isStale(pkg) {
  const dir = path.join(root, pkg);
  const marker = path.join(dir, 'dist', pkg === 'shell' ? 'index.html' : 'mf-manifest.json');
  if (!existsSync(marker)) return true;
  const builtAt = statSync(marker).mtimeMs;
  const inputs = [
    path.join(dir, 'src'),
    path.join(dir, 'rspack.config.ts'),
    path.join(dir, 'package.json'),
    path.join(root, 'shared', 'src'),
    path.join(root, 'rspack.config.base.ts'),
  ];
  return inputs.some((input) => newestMtime(input) > builtAt);
}

const rspack = path.join(root, 'node_modules', '.bin', 'rspack');
const started = Date.now();
for (const pkg of packages) {
  if (!FRONTEND_PACKAGES.includes(pkg)) {
    console.error(`Unknown package ${pkg}; expected one of ${FRONTEND_PACKAGES.join(', ')}`);
    process.exit(2);
  }
  if (ifNeeded && !isStale(pkg)) {
    console.log(`${pkg}: up to date`);
    continue;
  }
  const t0 = Date.now();
  const result = spawnSync(rspack, ['build'], {
    cwd: path.join(root, pkg),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  if (result.status !== 0) {
    console.error(`${pkg}: build failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`${pkg}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`Front-end build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
