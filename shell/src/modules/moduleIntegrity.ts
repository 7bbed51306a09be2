import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** A URL without its query: the retry plugin adds one to bust caches; the file is the same. */
const withoutQuery = (url: string) => url.split('?')[0] ?? url;

/** The integrity each release's entry script must have, by its URL: one record for every host page. */
const integrities = new Map<string, string>();

/** Remembers what a module's entry must hash to (its release's), or that it has no release. */
export function expectIntegrity(url: string, integrity: string | null): void {
  if (integrity) integrities.set(url, integrity);
  else integrities.delete(url);
}

/**
 * Subresource Integrity for published releases (docs/architecture.md, Module releases): the entry
 * script of a release is loaded with the hash the registry recorded when it was published, and the
 * browser refuses it when a byte differs. Entries without a release (the build in place) load as before.
 */
export function moduleIntegrityPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'module-integrity',
    createScript({ url }) {
      const integrity = integrities.get(withoutQuery(url));
      if (!integrity) return undefined;
      const script = document.createElement('script');
      script.src = url;
      script.integrity = integrity;
      script.crossOrigin = 'anonymous';
      return script;
    },
  };
}
