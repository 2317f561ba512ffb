import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { TaxonomyTree } from '@care/contracts';
import type { Logger } from '@care/service-kit';
import { AgentSearchIndex } from './catalog.search';
import { buildTaxonomy } from './taxonomy';
import { loadWorkspace } from './workspace.loader';
import type { AgentRecord, SkillRecord, WorkspaceContent, WorkspaceProblem } from './catalog.types';

/** One immutable load of the workspace with its search index and taxonomy; replaced whole on reload. */
export interface CatalogSnapshot {
  root: string;
  agents: ReadonlyMap<string, AgentRecord>;
  skills: ReadonlyMap<string, SkillRecord>;
  /** Active agents, sorted by domain, category, name: the default list order. */
  activeAgents: readonly AgentRecord[];
  /** Skills that are not templates, sorted by id. */
  countedSkills: readonly SkillRecord[];
  index: AgentSearchIndex;
  taxonomy: TaxonomyTree;
  problems: readonly WorkspaceProblem[];
  loadedAt: Date;
}

/** Options of {@link CatalogStore}. */
export interface CatalogStoreOptions {
  root: string;
  logger: Logger;
  /** Quiet period after the last file event before reloading. */
  debounceMs?: number;
  clock?: () => Date;
}

/** Builds the snapshot of already-loaded workspace content (also used by the benchmark). */
function buildSnapshot(content: WorkspaceContent, loadedAt: Date): CatalogSnapshot {
  const all = [...content.agents.values()];
  const activeAgents = all
    .filter((a) => a.status === 'active')
    .sort((a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
  return {
    root: content.root,
    agents: content.agents,
    skills: content.skills,
    activeAgents,
    countedSkills: [...content.skills.values()]
      .filter((s) => s.metadata.status !== 'template')
      .sort((a, b) => a.id.localeCompare(b.id)),
    index: new AgentSearchIndex(activeAgents),
    taxonomy: buildTaxonomy(activeAgents),
    problems: content.problems,
    loadedAt,
  };
}

/**
 * Holds the current catalog. `load()` reads the workspace; `watch()` reloads it when files change
 * (fs.watch, debounced), swapping the snapshot atomically so readers never see half a load. A failed
 * reload keeps the previous snapshot.
 */
export class CatalogStore {
  private current: CatalogSnapshot;
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private loading?: Promise<CatalogSnapshot>;
  private again = false;
  private readonly listeners = new Set<(s: CatalogSnapshot) => void>();

  constructor(private readonly opts: CatalogStoreOptions) {
    const empty: WorkspaceContent = { root: opts.root, agents: new Map(), skills: new Map(), problems: [] };
    this.current = buildSnapshot(empty, this.now());
  }

  /** The catalog as of the last completed load. */
  snapshot(): CatalogSnapshot {
    return this.current;
  }

  /** Loads (or reloads) the workspace; concurrent calls coalesce into one more load. */
  load(): Promise<CatalogSnapshot> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.doLoad().finally(() => {
      this.loading = undefined;
      if (this.again) {
        this.again = false;
        void this.load();
      }
    });
    return this.loading;
  }

  /** Calls `fn` after every completed load; returns an unsubscribe. */
  onReload(fn: (s: CatalogSnapshot) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Starts watching the workspace folder recursively; a change reloads after `debounceMs` of quiet. */
  watch(): void {
    if (this.watcher) return;
    const debounce = this.opts.debounceMs ?? 300;
    try {
      this.watcher = watch(this.opts.root, { recursive: true, persistent: false }, () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.load(), debounce);
        this.timer.unref();
      });
      this.watcher.on('error', (err) =>
        this.opts.logger.warn({ err: err.message }, 'workspace watch stopped'),
      );
    } catch (err) {
      this.opts.logger.warn(
        { err: (err as Error).message },
        'workspace cannot be watched; reload needs a restart',
      );
    }
  }

  /** Stops watching. */
  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async doLoad(): Promise<CatalogSnapshot> {
    const { logger } = this.opts;
    try {
      const content = await loadWorkspace(this.opts.root);
      this.current = buildSnapshot(content, this.now());
      for (const p of content.problems) {
        const entry = { file: p.file, field: p.field, problem: p.message };
        if (p.severity === 'error') logger.error(entry, 'workspace package skipped');
        else logger.warn(entry, 'workspace warning');
      }
      logger.info(
        {
          root: path.basename(this.opts.root),
          agents: this.current.activeAgents.length,
          skills: this.current.countedSkills.length,
        },
        'workspace loaded',
      );
      for (const fn of this.listeners) fn(this.current);
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'workspace reload failed; keeping the previous catalog');
    }
    return this.current;
  }

  private now(): Date {
    return this.opts.clock ? this.opts.clock() : new Date();
  }
}
