// Renders the PNG app icons (web manifest, apple-touch-icon) from app/icon.svg. Run after changing the
// icon: node scripts/make-icons.mjs
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

const svg = readFileSync('app/icon.svg', 'utf8');
// Full-bleed variant for "maskable" and Apple icons: the platform rounds the corners itself.
const square = svg.replace('rx="8"', 'rx="0"');
// Maskable: the glyph inside the central 80% safe zone.
const maskable = square
  .replace('viewBox="0 0 32 32"', 'viewBox="-4 -4 40 40"')
  .replace('<rect width="32" height="32" rx="0"', '<rect x="-4" y="-4" width="40" height="40"');

const render = (source, size, out) =>
  sharp(Buffer.from(source), { density: Math.ceil((72 * size) / 32) })
    .resize(size, size)
    .png()
    .toFile(out);

await render(svg, 192, 'public/icons/icon-192.png');
await render(svg, 512, 'public/icons/icon-512.png');
await render(maskable, 512, 'public/icons/icon-maskable-512.png');
await render(square, 180, 'app/apple-icon.png');
