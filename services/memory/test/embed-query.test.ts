import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { DEFAULT_FUSION, questionStatement } from '../src/recall/fusion';
import { embedQuery } from '../src/recall/recall.service';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('embedQuery (ADR 0320)', () => {
  const provider = new HashingEmbeddingProvider(256);
  const question = 'What kind of car was Dev practising fitting the baby car seat into?';

  it('searches by default with the mean of the query as asked and as a statement, a unit vector', async () => {
    const [asked, statement] = await provider.embed([question, questionStatement(question)]);
    const v = await embedQuery(provider, question, DEFAULT_FUSION);
    expect(cosine(v, v)).toBeCloseTo(1, 9);
    expect(cosine(v, asked)).toBeLessThan(1 - 1e-6);
    expect(cosine(v, statement)).toBeLessThan(1 - 1e-6);
    expect(cosine(v, asked)).toBeCloseTo(cosine(v, statement), 9);
  });

  it('embeds the query alone, or the statement alone, when told to', async () => {
    const [asked, statement] = await provider.embed([question, questionStatement(question)]);
    expect(await embedQuery(provider, question, { queryVector: 'asked' })).toEqual(asked);
    expect(await embedQuery(provider, question, { queryVector: 'statement' })).toEqual(statement);
  });
});
