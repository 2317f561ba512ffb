import { createLogger } from '@care/service-kit';
import { Writable } from 'node:stream';
import { CatalogService } from '../../../src/catalog/catalog.service';
import { CatalogStore } from '../../../src/catalog/catalog.store';
import { chatCatalogFrom } from '../../../src/chat/catalog-adapter';
import type { ChatCatalog } from '../../../src/chat/chat-catalog';
import { SHIPPED_WORKSPACE } from './chat-app';

/** The real catalog over the shipped workspace, adapted as the chat engine sees it. */
export async function shippedChatCatalog(): Promise<ChatCatalog> {
  const logger = createLogger({
    name: 'test',
    level: 'warn',
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  const store = new CatalogStore({ root: SHIPPED_WORKSPACE, logger });
  await store.load();
  return chatCatalogFrom(new CatalogService(store), () => store.snapshot().activeAgents);
}
