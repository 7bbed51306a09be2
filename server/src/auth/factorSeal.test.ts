import {
  FACTOR_KEY_UNAVAILABLE,
  FactorKeyUnavailable,
  factorKeyIdOf,
  factorSealOf,
  isSealed,
} from './factorSeal';

describe('factor seal', () => {
  const owner = { clinicId: 1, userId: 7 };
  const key = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('seals a key so the stored text gives nothing away, names its key, and opens it again', () => {
    const seal = factorSealOf('the server key');
    const sealed = seal.seal(key, owner);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed.startsWith(`v2.${factorKeyIdOf('the server key')}.`)).toBe(true);
    expect(sealed).not.toContain(key);
    expect(seal.seal(key, owner)).not.toBe(sealed);
    expect(seal.open(sealed, owner)).toBe(key);
    expect(seal.isCurrent(sealed)).toBe(true);
  });

  it("opens only under its key and for its own user: a key moved to another user's row fails", () => {
    const sealed = factorSealOf('the server key').seal(key, owner);
    expect(() => factorSealOf('another key').open(sealed, owner)).toThrow(FactorKeyUnavailable);
    expect(() => factorSealOf('the server key').open(sealed, { clinicId: 1, userId: 8 })).toThrow(
      FACTOR_KEY_UNAVAILABLE,
    );
    // One bit of the sealed key flipped (its last byte): the seal no longer opens.
    const [version, keyId, payload = ''] = sealed.split('.');
    const bytes = Buffer.from(payload, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    const tampered = `${version}.${keyId}.${bytes.toString('base64url')}`;
    expect(() => factorSealOf('the server key').open(tampered, owner)).toThrow(FactorKeyUnavailable);
  });

  it('opens what an earlier key sealed while it is named as previous, and says it is not current', () => {
    const sealed = factorSealOf('the old key').seal(key, owner);
    const rotated = factorSealOf('the new key', ['the old key']);
    expect(rotated.open(sealed, owner)).toBe(key);
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.isCurrent(rotated.seal(key, owner))).toBe(true);
  });

  it("opens a first release's seal (no key id) under any key it knows", () => {
    // The first release wrote `v1.` and the same payload, with no key id.
    const [, , payload] = factorSealOf('the old key').seal(key, owner).split('.');
    const firstRelease = `v1.${payload}`;
    expect(factorSealOf('the new key', ['the old key']).open(firstRelease, owner)).toBe(key);
    expect(() => factorSealOf('the new key').open(firstRelease, owner)).toThrow(FactorKeyUnavailable);
  });

  it('answers a key kept before sealing began as it is', () => {
    expect(factorSealOf('the server key').open(key, owner)).toBe(key);
  });
});
