#!/usr/bin/env node
// A game server in Node.js calling handeval: scores hands, settles showdowns, sends a
// batch and a stream, asks the odds, checks health, and reads the field violations of a
// bad request.
//
//   npm ci && node main.js --target localhost:50051 [--json]     (Node.js 20 or newer)
//
// Loads the project's own .proto files at run time with @grpc/proto-loader.
'use strict';

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');
const googleProtos = require('google-proto-files');

const PROTOS = path.resolve(__dirname, '..', '..', 'protos');
const LOADER_OPTIONS = {
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  includeDirs: [PROTOS, googleProtos.getProtoPath('..'), __dirname],
};

function parseArgs(argv) {
  const args = { target: 'localhost:50051', json: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--target') args.target = argv[++i];
    else if (argv[i] === '--json') args.json = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return args;
}

function loadClients(target) {
  const definition = protoLoader.loadSync(['handeval/v1/handeval.proto', 'health.proto'], LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition);
  const credentials = grpc.credentials.createInsecure();
  return {
    handeval: new loaded.handeval.v1.HandEvaluator(target, credentials),
    health: new loaded.grpc.health.v1.Health(target, credentials),
  };
}

function call(client, method, request) {
  const deadline = new Date(Date.now() + 10000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (error, reply) => (error ? reject(error) : resolve(reply)));
  });
}

// A BatchColumns column (little-endian, as are x86 and ARM) as a typed array, no loop per
// hand. A typed array must start at a multiple of its element size, and a Buffer decoded
// out of the reply may not: then copy it into a fresh (aligned) one first.
function column(buffer, TypedArray, count) {
  const aligned = buffer.byteOffset % TypedArray.BYTES_PER_ELEMENT === 0 ? buffer : new Uint8Array(buffer);
  return new TypedArray(aligned.buffer, aligned.byteOffset, count);
}

// google.rpc.Status travels in the `grpc-status-details-bin` trailer; its details hold a BadRequest.
function fieldViolations(error) {
  const root = new protobuf.Root().loadSync([
    googleProtos.getProtoPath('rpc', 'status.proto'),
    googleProtos.getProtoPath('rpc', 'error_details.proto'),
  ], { keepCase: true });
  const Status = root.lookupType('google.rpc.Status');
  const BadRequest = root.lookupType('google.rpc.BadRequest');
  const [raw] = error.metadata.get('grpc-status-details-bin');
  if (!raw) return [];
  const status = Status.decode(raw);
  return status.details
    .filter((any) => any.type_url.endsWith('/google.rpc.BadRequest'))
    .flatMap((any) => BadRequest.decode(any.value).field_violations)
    .map((v) => ({ field: v.field, description: v.description }));
}

function summary(evaluation) {
  return {
    game: evaluation.game,
    strength: Number(evaluation.strength),
    low_strength: Number(evaluation.low_strength),
    instant_win: evaluation.instant_win,
    description: evaluation.description,
  };
}

function evaluateStream(client, requests) {
  return new Promise((resolve, reject) => {
    const replies = [];
    const stream = client.EvaluateStream({ deadline: new Date(Date.now() + 10000) });
    stream.on('data', (reply) => replies.push(reply));
    stream.on('error', reject);
    stream.on('end', () => resolve(replies));
    requests.forEach((r) => stream.write(r));
    stream.end();
  });
}

// Card id = rank_index * 4 + suit_index (2..A, c d h s), as the batch format packs them.
function cardId(text) {
  const rank = '23456789TJQKA'.indexOf(text[0].toUpperCase());
  const suit = 'cdhs'.indexOf(text[1].toLowerCase());
  return rank * 4 + suit;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { handeval, health } = loadClients(args.target);
  const out = {};

  const status = await call(health, 'Check', { service: 'handeval.v1.HandEvaluator' });
  out.health = status.status;

  const singles = [
    { game: 'GAME_POKER_HIGH', hand: ['Ah', 'Kh'], table: ['Qh', 'Jh', 'Th', '2c', '3d'], request_id: 'poker' },
    { game: 'GAME_TONK', hand: ['5h', '6h', '7h', 'Kd', '2c'], request_id: 'tonk' },
    { game: 'GAME_NOT_POKER', hand: ['As', 'Ah', 'Ad', 'Ac', 'X1', '3c'], request_id: 'notpoker' },
  ];
  out.evaluate = [];
  for (const request of singles) {
    out.evaluate.push({ request_id: request.request_id, ...summary(await call(handeval, 'Evaluate', request)) });
  }

  const numbers = await call(handeval, 'Showdown', {
    game: 'GAME_NUMBERS',
    table: ['3c', '9d', 'Kh'],
    seats: [
      { player: 'alice', hand: ['3d', '9h', 'Ks'] },
      { player: 'bob', hand: ['Ah', '2d', '4c', '5s', '6h'] },
    ],
  });
  const tonk = await call(handeval, 'Showdown', {
    game: 'GAME_TONK',
    ending: 'TONK_ENDING_DROP',
    ender: 'alice',
    seats: [
      { player: 'alice', hand: ['5h', '6d', '2c'] },
      { player: 'bob', hand: ['Ac', '2d', '3s'] },
      { player: 'carol', hand: ['Kc', 'Qd'] },
    ],
  });
  const awards = (reply) => reply.awards.map((a) => ({ player: a.player, pot: a.pot, share: `${a.numerator}/${a.denominator}` }));
  out.showdown = {
    numbers: { awards: awards(numbers), redeal: numbers.redeal, explanation: numbers.explanation },
    tonk: { payouts: tonk.payouts.map((p) => ({ player: p.player, stakes: Number(p.stakes) })), explanation: tonk.explanation },
  };

  const hands = [['Ah', 'Kh', 'Qh', 'Jh', 'Th', '2c', '3d'], ['2c', '7d', '9h', 'Js', '4c', '5d', '8h']];
  const batch = await call(handeval, 'EvaluateBatch', {
    game: 'GAME_POKER_HIGH', hand_size: 7, hands: Buffer.from(hands.flat().map(cardId)), columns: true,
  });
  const count = batch.columns.instant_win.length;
  out.batch = {
    strength: Array.from(column(batch.columns.strength, Uint32Array, count)),
    value: Array.from(column(batch.columns.value, Int32Array, count)),
  };

  const streamed = await evaluateStream(handeval, [
    { game: 'GAME_THREE_THIRTY_THREE', hand: ['Ah', '9d'], request_id: 's1' },
    { game: 'GAME_THREE_THIRTY_THREE', hand: ['Zz'], request_id: 's2' },
    { game: 'GAME_HIGH_CARD', hand: ['2c', '3c', '4c', '5c', '6c'], table: ['2d', '3d', '4d', '5d', '6d'], request_id: 's3' },
  ]);
  out.stream = streamed.map((r) => ({
    request_id: r.request_id,
    ...(r.error ? { error_code: r.error.code, error: r.error.message } : summary(r)),
  }));

  const odds = await call(handeval, 'Odds', {
    game: 'GAME_POKER_HIGH',
    table: ['2c', '7d', '9h'],
    seats: [{ player: 'alice', hand: ['As', 'Ks'] }, { player: 'bob', unknown: 2 }],
  });
  out.odds = {
    exact: odds.exact,
    runouts: Number(odds.runouts),
    seats: odds.seats.map((s) => ({ player: s.player, share: s.share })),
  };

  try {
    await call(handeval, 'Evaluate', { game: 'GAME_NUMBERS', hand: ['Ah', 'Zz', 'Ah'] });
    out.invalid = { unexpected: 'accepted' };
  } catch (error) {
    out.invalid = { code: grpc.status[error.code], violations: fieldViolations(error) };
  }

  handeval.close();
  health.close();
  if (args.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  console.log(`health: ${out.health}`);
  for (const e of out.evaluate) console.log(`evaluate ${e.game.padEnd(24)} strength ${String(e.strength).padStart(12)}  ${e.description}`);
  console.log(`showdown numbers: ${out.showdown.numbers.explanation}`);
  for (const a of out.showdown.numbers.awards) console.log(`  ${a.player.padEnd(6)} ${a.pot.padEnd(6)} ${a.share}`);
  console.log(`showdown tonk: ${out.showdown.tonk.explanation}`);
  for (const p of out.showdown.tonk.payouts) console.log(`  ${p.player.padEnd(6)} ${String(p.stakes).padStart(3)}`);
  console.log(`batch poker values (rank_class): ${out.batch.value.join(', ')}`);
  for (const s of out.stream) console.log(`stream ${s.request_id}: ${s.description ?? `error ${s.error_code}: ${s.error}`}`);
  console.log(`odds poker high, ${out.odds.exact ? 'exact' : 'sampled'} over ${out.odds.runouts} run-outs:`);
  for (const s of out.odds.seats) console.log(`  ${s.player.padEnd(6)} ${(s.share * 100).toFixed(2)}%`);
  console.log(`invalid request: ${out.invalid.code}`);
  for (const v of out.invalid.violations || []) console.log(`  ${v.field}: ${v.description}`);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
