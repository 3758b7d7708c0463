// A consumer's program: plain Node, the built package imported by its name (package self-reference).
import * as sdk from '@aide/sdk';
import exercise from '../outside/exercise.cjs';

process.stdout.write(JSON.stringify(await exercise(sdk)));
