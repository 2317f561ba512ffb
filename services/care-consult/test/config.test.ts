import fs from 'node:fs';
import path from 'node:path';
import { configTable } from '@care/service-kit';
import { ConfigSchema, loadAppConfig } from '../src/config';

describe('ACCEPT_SOCKETS: listen sockets on PORT (ADR 0405)', () => {
  it('defaults to 1 and reads a whole number >= 1', () => {
    expect(loadAppConfig({}).ACCEPT_SOCKETS).toBe(1);
    expect(loadAppConfig({ ACCEPT_SOCKETS: '4' }).ACCEPT_SOCKETS).toBe(4);
  });

  it.each(['0', '-2', 'abc', '1.5'])(
    'refuses ACCEPT_SOCKETS=%j at start-up, naming the variable',
    (value) => {
      expect(() => loadAppConfig({ ACCEPT_SOCKETS: value })).toThrow(/ACCEPT_SOCKETS/);
    },
  );

  it('is documented in the README config table as the schema describes it', () => {
    const row = configTable(ConfigSchema)
      .split('\n')
      .find((line) => line.startsWith('| `ACCEPT_SOCKETS` |'));
    expect(row).toBeDefined();
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain(row);
  });
});
