import { factorSealOf, isSealed } from './factorSeal';

describe('factor seal', () => {
  const owner = { clinicId: 1, userId: 7 };
  const key = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('seals a key so the stored text gives nothing away, and opens it again', () => {
    const seal = factorSealOf('the server key');
    const sealed = seal.seal(key, owner);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(key);
    expect(seal.seal(key, owner)).not.toBe(sealed);
    expect(seal.open(sealed, owner)).toBe(key);
  });

  it("opens only under its key and for its own user: a key moved to another user's row fails", () => {
    const sealed = factorSealOf('the server key').seal(key, owner);
    expect(() => factorSealOf('another key').open(sealed, owner)).toThrow();
    expect(() => factorSealOf('the server key').open(sealed, { clinicId: 1, userId: 8 })).toThrow();
    expect(() => factorSealOf('the server key').open(`${sealed.slice(0, -2)}AA`, owner)).toThrow();
  });

  it('answers a key kept before sealing began as it is', () => {
    expect(factorSealOf('the server key').open(key, owner)).toBe(key);
  });
});
