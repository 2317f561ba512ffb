// What routing.bench.mjs and train-router.mjs share: the built care-consult service (run its build first), the
// shipped workspace's catalog as the chat engine sees it, and the labelled routing sets by name.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const service = path.resolve(here, '../../services/care-consult');
export const serviceRequire = createRequire(path.join(service, 'package.json'));
/** A module of the built service, by its path under dist/. */
export const dist = (p) => serviceRequire(path.join(service, 'dist', p));

/**
 * The routing sets: dev, spent, spent2, spent3, spent4 and own may be read and trained on (spent3 and spent4 were the
 * third and fourth final sets, reported once, ADR 0417 and 0433); final is the next frozen blind set, run once.
 */
export const SET_FILES = {
  dev: path.join(service, 'data/routing/blind-dev.jsonl'),
  own: path.join(here, 'own-examples.jsonl'),
  spent: path.join(service, 'data/routing/blind1-spent.jsonl'),
  spent2: path.join(service, 'data/routing/blind2-spent.jsonl'),
  spent3: path.join(service, 'data/routing/blind3-spent.jsonl'),
  spent4: path.join(service, 'data/routing/blind4-spent.jsonl'),
  final: path.join(service, 'data/routing/blind5-final.jsonl'),
};

/**
 * Training-only sets: labelled messages written for training by writers who saw only the active agents list (ADR
 * 0433). Always in the learned share's training, never held out or scored: they are not blind evaluation sets.
 */
export const TRAINING_ONLY_FILES = {
  generated: path.join(service, 'data/routing/train-generated.jsonl'),
};

/** A logger that prints nothing (a bench prints its own tables). */
export function silentLogger(name) {
  const { createLogger } = serviceRequire('@care/service-kit');
  return createLogger({ name, level: 'error', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
}

/** The shipped workspace loaded into a catalog store, adapted as the chat engine sees it. */
export async function shippedCatalog(logger) {
  const { CatalogStore } = dist('catalog/catalog.store.js');
  const { CatalogService } = dist('catalog/catalog.service.js');
  const { chatCatalogFrom } = dist('chat/catalog-adapter.js');
  const store = new CatalogStore({ root: path.join(service, 'workspace'), logger });
  await store.load();
  return chatCatalogFrom(new CatalogService(store), () => store.snapshot().activeAgents);
}
