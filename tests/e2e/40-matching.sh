#!/usr/bin/env bash
# Japanese matching: word precision and substring recall together, variant
# folding, tiers, compounds, phrases, exact mode, rescue and suggestions.
# The fixture is the mini-corpus of shared/docs/anchors.md plus two notes.
. "$(dirname "$0")/lib.sh"
idx="$WORK/idx"
"$INDEXER" --vault "$SAGASU_SRC/tests/e2e/fixtures/matching" --index "$idx" --quiet
S() { "$SEARCHER" --index "$idx" --snippets 0 "$@"; }
J() { hits "$SEARCHER" --index "$idx" --json --snippets 0 "$@"; }

check kyoto-word-before-substring J 京都               # c as a word; a (東京都) only as a substring, lower
check server-long J サーバー
check server-short J サーバ
check server-halfwidth J ｻｰﾊﾞ
check server-hiragana J さーばー
check training-fullwidth J training
check katakana-word J ラグ                        # a word of the notes (lag, decoy.md): not inside ストラグラー,
check katakana-word-loose J --loose ラグ          # another word, but with --loose
check partial-katakana J ストラグラ
check decoy-bigrams J ラグラ                      # ラグ and グラ apart in decoy.md: not a hit
check one-character J 都
check compound-tight J 本番クラスタ                # the pieces of a compound together; scattered ones are counted apart
check compound-adjacent-first J --loose 本番クラスタ  # with --loose, adjacent pieces above scattered ones
check phrase-adjacent-only J '"本番クラスタ"'
check iteration-mark J 人人
check groonga-912 J パニック                      # a word before a space is still found
check mixed-latin J veScale-FSDP
check exact-mode J --exact サーバー
check exact-mode-width J --exact ｻｰﾊﾞｰ
check rescue-or S 京都 存在しない
check limit-huge S --paths --limit 4294967296 京都   # 2^32: all hits, not a limit wrapped to 0
check rescue-or-exclusion S 京都 存在しない -東京都   # the rescue widens AND to OR; an exclusion stays one
check suggestion S trainng
check explain S --explain --limit 2 本番クラスタ
check explain-loose S --explain --limit 2 --loose 本番クラスタ
check phrase-and-substring J '"LLM 訓練" ストラグラ'   # a spaced phrase with a piece the text must confirm
check exact-partial J --exact トラグラ                 # --exact finds a part of a word, as typed
check snippet-substring "$SEARCHER" --index "$idx" --limit 1 東京
check snippet-variant "$SEARCHER" --index "$idx" --limit 3 さーばー
finish
