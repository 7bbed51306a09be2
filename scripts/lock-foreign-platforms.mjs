#!/usr/bin/env node
// The registry this project installs from carries only the Linux builds of native packages
// (biome, rspack, swc, unrs-resolver). `npm install` then leaves the other platforms' optional
// builds out of package-lock.json, and `npm ci` refuses a lockfile that lacks them.
// This script records each missing optional build with the platform its name declares, so that
// `npm ci` finds the lockfile complete and skips those builds on this platform as it would anyway.
// Run it after any `npm install` that rewrites the lockfile: `node scripts/lock-foreign-platforms.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS_NAMES = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony'];
const CPU_NAMES = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 'riscv64', 's390x', 'loong64', 'wasm32'];

/** Reads the os, cpu and libc a platform build is for from its package name. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS_NAMES.includes(part));
  const cpu = parts.find((part) => CPU_NAMES.includes(part));
  const platform = {};
  if (os) platform.os = [os];
  if (cpu) platform.cpu = [cpu];
  if (parts.includes('musl') || parts.includes('musleabihf')) platform.libc = ['musl'];
  else if (os === 'linux') platform.libc = ['glibc'];
  return platform;
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  if (!entry.optionalDependencies) continue;
  for (const [name, spec] of Object.entries(entry.optionalDependencies)) {
    const nested = `${location}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    if (!/^\d+\.\d+\.\d+/.test(spec)) {
      console.warn(`skipped ${name}@${spec}: not an exact version`);
      continue;
    }
    const platform = platformOf(name);
    if (!platform.os && !platform.cpu) {
      console.warn(`skipped ${name}: no platform in its name`);
      continue;
    }
    packages[hoisted] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile: ${added} foreign-platform builds recorded`);
