import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../src/db/open-database';

/** Opens care-consult's migrated database at `uri`: what the kit's test engines (`testEngines()`) open. */
export function openConsultDatabase(uri: string): Promise<Database> {
  return openCareConsultDatabase({ uri });
}
