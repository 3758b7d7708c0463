// An ES module: the SDK imported by name.
import * as sdk from '@aide/sdk';
import exercise from './exercise.cjs';

process.stdout.write(JSON.stringify(await exercise(sdk)));
