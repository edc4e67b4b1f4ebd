#!/usr/bin/env bash
# Makes the demo media under public/media/demo from the SVG scenes there and checklist.svg:
# JPEG photos (with gallery variants), a short video, a spoken audio note and a PDF.
# Needs Debian's librsvg2-bin, imagemagick, ffmpeg and espeak-ng. The results are committed,
# so running the site never needs these tools.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../public/media/demo"
convert=/usr/bin/convert
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

photo() { # scene, output name, ImageMagick colour adjustments...
  local scene=$1 name=$2; shift 2
  rsvg-convert -w 1500 -h 1000 "$out/$scene.svg" -o "$tmp/$scene.png"
  # Grain and a soft vignette, so the optimiser has photo-like pixels to work on.
  $convert "$tmp/$scene.png" "$@" -attenuate 0.35 +noise Gaussian \
    \( -size 1500x1000 radial-gradient:white-gray60 \) -compose multiply -composite \
    -strip -interlace Plane -sampling-factor 4:2:0 -quality 78 "$out/$name.jpg"
}

for scene in ridge valley coast desert lake forest gear; do photo "$scene" "$scene"; done
for scene in ridge lake coast; do
  photo "$scene" "$scene-dawn" -channel R -evaluate multiply 1.3 -channel G -evaluate multiply 1.05 -channel B -evaluate multiply 0.75 +channel
  photo "$scene" "$scene-dusk" -modulate 80,110,104 -fill '#5b3f8c' -colorize 22%
done

# Four seconds drifting across the ridge, no sound track.
ffmpeg -loglevel error -y -loop 1 -i "$out/ridge.jpg" -t 4 -r 24 \
  -vf "scale=1500:1000,crop=960:540:'(in_w-960)*t/4':'(in_h-540)/2',scale=640:360,format=yuv420p" \
  -c:v libx264 -preset veryslow -crf 30 -movflags +faststart "$out/ridge-flyover.mp4"

espeak-ng -v en-gb -s 150 -w "$tmp/note.wav" \
  "Ridgeline trail notes. Start early, carry the ten essentials, and tell someone your route. See you on the trail."
ffmpeg -loglevel error -y -i "$tmp/note.wav" -ac 1 -ar 22050 -c:a libmp3lame -b:a 32k "$out/trail-notes.mp3"

rsvg-convert -f pdf "$here/checklist.svg" -o "$out/ten-essentials-checklist.pdf"
