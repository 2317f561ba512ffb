// Test-data builders: aMemory().withText('...').semantic().build() gives a remember body.
import { randomUUID } from 'node:crypto';

/** A remember request body. */
export interface RememberBody {
  id?: string;
  text: string;
  type: string;
  source: string;
  tags: string[];
}

class MemoryBuilder {
  private body: RememberBody = {
    id: `m-${randomUUID()}`,
    text: 'The patient walks thirty minutes every morning',
    type: 'EPISODIC',
    source: 'USER_STATED',
    tags: [],
  };

  withId(id: string | undefined): this {
    this.body.id = id;
    return this;
  }
  withText(text: string): this {
    this.body.text = text;
    return this;
  }
  withTags(...tags: string[]): this {
    this.body.tags = tags;
    return this;
  }
  ofType(type: string): this {
    this.body.type = type;
    return this;
  }
  semantic(): this {
    return this.ofType('SEMANTIC');
  }
  fromSource(source: string): this {
    this.body.source = source;
    return this;
  }
  build(): RememberBody {
    return { ...this.body, tags: [...this.body.tags] };
  }
}

/** Starts a remember body with sensible defaults (episodic, user stated, unique id). */
export function aMemory(): MemoryBuilder {
  return new MemoryBuilder();
}

/** A document ingestion body with a vector of `dim` numbers. */
export function aDocument(
  id: string,
  text: string,
  vector: number[],
  tags: string[] = [],
): { id: string; text: string; vector: number[]; tags: string[] } {
  return { id, text, vector, tags };
}
