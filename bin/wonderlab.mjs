#!/usr/bin/env node
// Entry point of the `wonderlab` command: the compiled CLI of the shared package.
import { main } from '@wonderlab/shared/cli';

process.exitCode = await main(process.argv.slice(2));
