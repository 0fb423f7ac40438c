#!/usr/bin/env bash
# Regenerates the "real document" fixtures with tools other than this project's code, the way
# scanners, phones and other PDF producers make them:
#   scan-jpeg.pdf      a JPEG page wrapped in a PDF (img2pdf), no text layer
#   scan-g4.pdf        a two-page black-and-white office scan, CCITT Group 4 (ImageMagick + img2pdf)
#   scan-a4-letter.pdf a full A4 page of a letter scanned at 200 dpi, CCITT G4 (for the benchmark)
#   cjk-nonembedded.pdf Japanese text in HeiseiMin-W3 / UniJIS-UCS2-H, font not embedded (reportlab)
#   photo-exif-le.jpg  a phone photo stored sideways with EXIF Orientation 6, little-endian (Android)
#   photo-exif-be.jpg  the same photo with big-endian EXIF (iPhone)
#   hopeless-scan.jpg  faded text under heavy noise: nothing an OCR engine can read
# Needs Debian's imagemagick, img2pdf, libimage-exiftool-perl, python3-reportlab, fonts-dejavu-core;
# poppler-utils and tesseract-ocr to verify. Tests never run this: the committed files are the fixtures.
# Usage: packages/contract/scripts/make-real-fixtures.sh [--verify]
set -euo pipefail
cd "$(dirname "$0")/../fixtures"
IM=/usr/bin/convert # /usr/local/bin/convert may be a stand-in that only converts to PPM
FONT=DejaVu-Sans
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Fixed dates and no ImageMagick timestamps keep regenerated files close to identical; img2pdf still
# writes a random PDF /ID, so regenerated PDFs differ there.
export SOURCE_DATE_EPOCH=1714640400

# A page of printed text, as a scanner sees it: white paper, black type, 150 dpi, A5-ish.
page() { # out.png "line" "line" ...
  local out=$1; shift
  local args=()
  local y=60
  for line in "$@"; do args+=(-annotate "+50+$y" "$line"); y=$((y + 48)); done
  "$IM" -size 620x$((y + 20)) xc:white -font "$FONT" -pointsize 30 -fill '#111' "${args[@]}" \
    -density 150 -units PixelsPerInch -strip "$out"
}

# 1. JPEG in a PDF: the most common real "scan".
page "$tmp/jpeg-page.png" 'Warehouse receipt 7731' 'Reference word: HALIBUT' 'Received in good order'
"$IM" "$tmp/jpeg-page.png" -quality 80 -strip "$tmp/jpeg-page.jpg"
img2pdf --nodate --producer 'make-real-fixtures' -o scan-jpeg.pdf "$tmp/jpeg-page.jpg"

# 2. Office-scanner PDF: two bilevel pages, CCITT G4 (img2pdf embeds the G4 stream as it is).
page "$tmp/g4-1.png" 'Board minutes, page one' 'Codename KESTREL'
page "$tmp/g4-2.png" 'Board minutes, page two' 'Codename OSPREY'
for n in 1 2; do "$IM" "$tmp/g4-$n.png" -threshold 50% -monochrome -compress Group4 -density 150 -units PixelsPerInch "$tmp/g4-$n.tif"; done
img2pdf --nodate --producer 'make-real-fixtures' -o scan-g4.pdf "$tmp/g4-1.tif" "$tmp/g4-2.tif"

# 2b. A full A4 letter at 200 dpi (1654×2339), G4: a realistic page for timing OCR.
letter='Harbor Logistics GmbH, Quay Road 14, Hamburg. Dear customer, thank you for your order of the third of April. This letter confirms that the freight described below was received at our warehouse in good order and will be shipped on the next available vessel. Please keep this letter with your records: the reference number below is needed for every question about the shipment, for customs, and for the final invoice. Our office is open from Monday to Friday, eight in the morning to six in the evening. Storage is free for the first fourteen days; after that a daily charge applies as described in our general terms. Goods that are not collected within ninety days may be sold to cover the costs of storage. If any item arrived damaged, please tell us within seven days so that we can make a claim with the carrier. We look forward to working with you again.'
args=()
y=200
while IFS= read -r line; do args+=(-annotate "+150+$y" "$line"); y=$((y + 44)); done < <(printf '%s Reference word: TAMARIND.\n%s Yours sincerely, the operations team.\n' "$letter" "$letter" | fold -s -w 72)
"$IM" -size 1654x2339 xc:white -font "$FONT" -pointsize 26 -fill black "${args[@]}" \
  -threshold 50% -monochrome -compress Group4 -density 200 -units PixelsPerInch "$tmp/letter.tif"
img2pdf --nodate --producer 'make-real-fixtures' -o scan-a4-letter.pdf "$tmp/letter.tif"

# 3. Japanese with a standard CID font that is not embedded: readers must bring the CMap.
/usr/bin/python3 - <<'PY'
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
pdfmetrics.registerFont(UnicodeCIDFont('HeiseiMin-W3'))
c = canvas.Canvas('cjk-nonembedded.pdf', pagesize=(420, 200), invariant=1, pageCompression=0)
c.setFont('HeiseiMin-W3', 18)
c.drawString(30, 140, '請求書 第二〇四一号')
c.drawString(30, 100, '東京都千代田区 丸の内商事')
c.setFont('Helvetica', 14)
c.drawString(30, 60, 'Reference word: WISTERIA')
c.save()
PY

# 4. A phone photo stored sideways (sensor orientation) with EXIF Orientation 6 = "rotate 90° clockwise
#    to display", in both byte orders.
page "$tmp/photo.png" 'Shopping list' 'Item: PERSIMMON' 'Bring the receipt'
"$IM" "$tmp/photo.png" -rotate -90 -quality 85 -strip "$tmp/photo-sideways.jpg"
for order in le:II be:MM; do
  name=photo-exif-${order%%:*}.jpg
  cp "$tmp/photo-sideways.jpg" "$name"
  exiftool -q -overwrite_original -ExifByteOrder="${order##*:}" -Orientation#=6 -Make=Fixture -Model="${order%%:*}" "$name"
done

# 5. A hopeless scan: a page of text faded to near-white, then buried in noise (a JPEG, as scanners
#    save greyscale pages). Large enough that reading every speck as text takes tens of seconds.
"$IM" -size 800x1100 xc:white -font "$FONT" -pointsize 30 -fill '#111' \
  -annotate +60+200 'This page faded away' -annotate +60+260 'nothing here can be read' -annotate +60+320 'by a person or a machine' \
  -fill white -colorize 92% -seed 12 -attenuate 6 +noise Impulse -attenuate 3 +noise Gaussian \
  -colorspace Gray -quality 50 -strip hopeless-scan.jpg

if [[ ${1:-} == --verify ]]; then
  for f in scan-jpeg.pdf scan-g4.pdf scan-a4-letter.pdf; do
    echo "== $f: pdftotext says [$(pdftotext "$f" - | tr -d '\f\n ')] (empty: no text layer)"
    pdfimages -list "$f" | sed -n '3,$p'
    pdftoppm -r 150 -png "$f" "$tmp/v"
    for p in "$tmp"/v-*.png; do tesseract "$p" - 2>/dev/null; done
    rm -f "$tmp"/v-*.png
  done
  echo "== cjk-nonembedded.pdf"; pdffonts cjk-nonembedded.pdf; pdftotext cjk-nonembedded.pdf -
  for f in photo-exif-le.jpg photo-exif-be.jpg; do
    echo "== $f"; exiftool -s -ExifByteOrder -Orientation "$f"
    "$IM" "$f" -auto-orient "$tmp/upright.png"; tesseract "$tmp/upright.png" - 2>/dev/null
  done
  echo "== hopeless-scan.jpg"; time tesseract hopeless-scan.jpg - 2>/dev/null | head -5
fi
echo 'real-document fixtures written'
