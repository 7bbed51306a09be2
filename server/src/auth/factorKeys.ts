import type { AppConfig } from '../config';
import type { Database } from '../db/client';
import { sharedSecret, storedSecret } from '../db/secrets';
import { type FactorSeal, factorSealOf } from './factorSeal';

/**
 * The factor seal this server uses: FACTOR_KEY when set, with FACTOR_KEY_PREVIOUS and any key the
 * database kept before FACTOR_KEY was set still opening what they sealed (resealing moves those keys
 * to FACTOR_KEY); without FACTOR_KEY, the key the database keeps (development).
 */
export async function factorSealOfConfig(
  db: Database,
  config: Pick<AppConfig, 'factorKey' | 'factorKeysPrevious'>,
): Promise<FactorSeal> {
  if (!config.factorKey) return factorSealOf(await sharedSecret(db, 'factors'), config.factorKeysPrevious);
  const keptInDatabase = await storedSecret(db, 'factors');
  return factorSealOf(config.factorKey, [
    ...config.factorKeysPrevious,
    ...(keptInDatabase ? [keptInDatabase] : []),
  ]);
}
