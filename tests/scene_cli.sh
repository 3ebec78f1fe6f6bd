#!/usr/bin/env bash
# The assimp reader's commands against the built binary (issue 26): run on FBX, glTF, COLLADA and
# X files, FILE#N and FILE#NAME, scene's listing, diff's verdicts and exit statuses, export to glTF
# and back, and the messages of files that cannot be read.  Prints "scene-cli: N passed, M failed";
# skipped (0 passed) in a build without assimp or without its test models.
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
m=/usr/share/assimp/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
summary() {
  echo "scene-cli: $passed passed, $failed failed"
  [ -z "${CHECK_SUMMARY:-}" ] || echo "scene-cli: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
}
if "$bin" list | grep -q "UNAVAILABLE: built without assimp"; then
  echo "scene-cli: skipped: built without assimp"; summary; exit 0
fi
[ -d "$m" ] || { echo "scene-cli: skipped: no $m (assimp-testmodels)"; summary; exit 0; }
expect() { # STATUS TEXT -- COMMAND...
  local want=$1 text=$2; shift 3
  local out rc
  out=$(timeout 120 "$@" 2>&1); rc=$?
  if [ "$rc" -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "scene-cli: FAILED: $* -> exit $rc (want $want), output:"; printf '%s\n' "$out" | head -n 5
    echo "  (want text: $text)"
  fi
}
expect 0 "clip   huesitos (assimp): 40 frames at 25 fps, 11 bones" -- "$bin" run --clip "$m/FBX/huesitos.fbx" --codec cubic
expect 0 "clip   simple_skin (assimp)" -- "$bin" run --clip "$m/glTF2/simple_skin/simple_skin.gltf" --codec shellpack
# a row a game ships, from the bytes alone: ACL where it is built, else the harness's own
if "$bin" list 2>/dev/null | awk '$1 == "acl" {f = 1; next} f && /^  [a-z]/ {exit} f && /UNAVAILABLE/ {u = 1} END {exit u}'; then
  runtime_row=acl
else
  runtime_row=shellpack-ra
fi
expect 0 "clip   box_nested_animation (assimp)" -- "$bin" run --clip "$m/Collada/box_nested_animation.dae" --codec "$runtime_row"
expect 0 "Testwuson#Wuson_Walk (assimp): 109 frames" -- "$bin" run --clip "$m/X/Testwuson.X#Wuson_Walk" --unit-m 0.01 --codec raw
expect 0 "Testwuson#2 (assimp): 109 frames" -- "$bin" run --clip "$m/X/Testwuson.X#2" --unit-m 0.01 --codec raw
expect 2 "no animation 'Jump' (it holds 3: #1 'Wuson_Run'" -- "$bin" run --clip "$m/X/Testwuson.X#Jump" --codec raw
expect 0 "  #2 Wuson_Walk" -- "$bin" scene "$m/X/Testwuson.X"
expect 0 "skeletal: no" -- "$bin" scene "$m/3DS/RotatingCube.3DS"
expect 2 "cannot open" -- "$bin" run --clip "$tmp/missing.fbx" --codec raw
printf 'not a scene' > "$tmp/bad.glb"
expect 2 "assimp cannot read it" -- "$bin" run --clip "$tmp/bad.glb" --codec raw
expect 2 "no animation" -- "$bin" run --clip "$m/glTF2/BoxTextured-glTF/BoxTextured.gltf" --codec raw
# the same BVH through both readers, and export to glTF and back
expect 0 "world position: max" -- "$bin" diff "$m/BVH/01_01.bvh" "assimp:$m/BVH/01_01.bvh" --unit-m 0.056444 --within 1e-6
expect 0 "only in B: " -- "$bin" diff "$m/BVH/01_01.bvh" "assimp:$m/BVH/01_01.bvh" --unit-m 0.056444
expect 2 "expected end of file after 3069 frames" -- "$bin" run --clip "$m/BVH/Boxing_Toes.bvh" --codec raw  # the harness's reader is strict; assimp reads it
expect 3 "over 1e-12 m: the clips differ" -- "$bin" diff walk mocap --within 1e-12
expect 1 "different rates" -- "$bin" diff walk "$m/FBX/huesitos.fbx"
expect 0 "-> $tmp/jump.gltf (gltf, 120 frames, 30 joints)" -- "$bin" export --clip jump --format gltf --out "$tmp/jump.gltf"
expect 0 "shared joints: 30" -- "$bin" diff jump "$tmp/jump.gltf" --within 1e-5
expect 0 "decoded by shellpack" -- "$bin" export --clip walk --codec shellpack --tol-mm 1 --format gltf --out "$tmp/walk_sp.gltf"
expect 0 "world position: max" -- "$bin" diff walk "$tmp/walk_sp.gltf" --within 0.002
summary
[ "$failed" -eq 0 ]
