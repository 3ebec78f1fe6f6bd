#!/usr/bin/env node
// Runs the study's own script (seeds/000) with other values of its constants,
// to produce independent expected outputs for tests/data/variants/.
//
//   node scripts/study_variant.js SEED_FILE [--fps N] [--walk-seconds S]
//        [--jump-seconds S] [--seed N] [--tol-mm X] [--lever-m X] [--sweep-mm a,b,c]
//
// Besides the constants, it makes the script follow them where it hard-codes
// values written for the defaults (README, "Parameters"): the sweep's B/s
// divides by the walk's length instead of 3, the keys line prints /FPS
// instead of /60, and the jump's frame ranges are Math.round(time * FPS)
// instead of the 60 fps numbers.  The decode timings are dropped.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const args = process.argv.slice(2);
if (args.length < 1) { console.error('usage: study_variant.js SEED_FILE [flags]'); process.exit(2); }
const seedText = fs.readFileSync(args[0], 'utf8');
const start = seedText.indexOf('#!/usr/bin/env node');
const end = seedText.indexOf('On the M3 laptop above that prints:');
if (start < 0 || end < 0) { console.error('script not found in ' + args[0]); process.exit(1); }
let src = seedText.slice(start, end);

const opt = { fps: '60', 'walk-seconds': '3', 'jump-seconds': '2', seed: '20260905',
              'tol-mm': '1', 'lever-m': '0.35', 'sweep-mm': '0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50' };
for (let i = 1; i < args.length; i += 2) {
  const k = args[i].replace(/^--/, '');
  if (!(k in opt) || i + 1 >= args.length) { console.error('bad flag ' + args[i]); process.exit(2); }
  opt[k] = args[i + 1];
}

function sub(from, to) {
  if (!src.includes(from)) { console.error('pattern not found: ' + from); process.exit(1); }
  src = src.split(from).join(to);
}
sub('const FPS = 60;', `const FPS = ${Number(opt.fps)};`);
sub('walkClip(3, false)', `walkClip(${Number(opt['walk-seconds'])}, false)`);
sub('walkClip(3, true)', `walkClip(${Number(opt['walk-seconds'])}, true)`);
sub('jumpClip(2)', `jumpClip(${Number(opt['jump-seconds'])})`);
sub('lcg(20260905)', `lcg(${Number(opt.seed)})`);
sub('const EPS_MM = 1;', `const EPS_MM = ${Number(opt['tol-mm'])};`);
sub('const LEVER = 0.35;', `const LEVER = ${Number(opt['lever-m'])};`);
sub('[0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50]', '[' + opt['sweep-mm'].split(',').map(Number).join(', ') + ']');
// hard-coded values that should follow the constants
sub('(b.length/3).toFixed(0)', '(b.length/(CLIPS.walk.frames/FPS)).toFixed(0)');
sub('linear ${kd(plans[4]).toFixed(1)}/60 (${(kd(plans[4])/60*100)',
    'linear ${kd(plans[4]).toFixed(1)}/${FPS} (${(kd(plans[4])/FPS*100)');
sub('cubic ${kd(plans[5]).toFixed(1)}/60 (${(kd(plans[5])/60*100)',
    'cubic ${kd(plans[5]).toFixed(1)}/${FPS} (${(kd(plans[5])/FPS*100)');
sub(`for (const [lab,a,b] of [['0.00-0.30 idle',0,18],['0.30-0.48 crouch',18,29],
  ['0.48-0.54 launch',29,32],['0.54-1.10 airborne',32,66],['1.10-1.18 impact',66,71],
  ['1.18-1.45 recover',71,87],['1.45-2.00 settle',87,120]]) {`,
`const JS_END = ${Number(opt['jump-seconds'])}, JN = CLIPS.jump.frames;
const JR = t => Math.min(JN, Math.max(0, Math.round(t * FPS)));
const JP = [['idle',0],['crouch',0.30],['launch',0.48],['airborne',0.54],['impact',1.10],['recover',1.18],['settle',1.45]];
for (const [lab,a,b] of JP.map(([n,t0],i) => { const t1 = i+1 < JP.length ? JP[i+1][1] : JS_END;
    const a = JR(t0), b = i+1 < JP.length ? Math.max(a, JR(t1)) : JN;
    return [t0.toFixed(2) + '-' + t1.toFixed(2) + ' ' + n, Math.min(a, JN), Math.max(Math.min(a, JN), b)]; })) {`);
// the timing sections are not reproducible and take seconds: drop them
sub('function bench(fn, label) {', 'function bench(fn, label) { return;');
sub("console.log('\\n### decode cost, one full 30-bone pose (300 values)');", '');
sub("console.log('\\n### sequential playback, 180 scalar channels only');", '');

const tmp = path.join(os.tmpdir(), `study_variant_${process.pid}.js`);
fs.writeFileSync(tmp, src);
try { process.stdout.write(execFileSync(process.execPath, [tmp], { maxBuffer: 1 << 26 })); }
finally { fs.unlinkSync(tmp); }
