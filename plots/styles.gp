# The codec styles of plots/codec_styles.tsv for the words of `codecs` (set before loading this):
# colour_of(i), point_of(i), size_of(i), dash_of(i) for the i-th codec, the same in every figure.
styles = system("scripts/codec_style.sh --words " . codecs)
colour_of(i) = word(styles, 4 * i - 3)
point_of(i) = int(word(styles, 4 * i - 2))
size_of(i) = real(word(styles, 4 * i - 1))
dash_of(i) = int(word(styles, 4 * i))
