// Runs both platform-auth benchmarks (build the service first: pnpm --filter @care/platform-auth build).
import { runPipelineOverhead } from './pipeline-overhead.bench.mjs';
import { runLoginThroughput } from './login-throughput.bench.mjs';

const pipeline = await runPipelineOverhead();
console.log(pipeline.markdown);
console.log('');
const login = await runLoginThroughput();
console.log(login.markdown);
