# kibitz command-line behaviour, checked on the real binary.
function(kibitz_cli_test name)
  cmake_parse_arguments(T "WILL_FAIL" "MATCH" "ARGS" ${ARGN})
  add_test(NAME cli.${name} COMMAND kibitz ${T_ARGS})
  set_tests_properties(cli.${name} PROPERTIES LABELS "cli;unit")
  if(T_MATCH)
    set_tests_properties(cli.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${T_MATCH}")
  endif()
  if(T_WILL_FAIL)
    set_tests_properties(cli.${name} PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()

kibitz_cli_test(help ARGS --help MATCH "Subcommands:.*demo.*perft")
kibitz_cli_test(perft_help ARGS perft --help MATCH "--depth")
kibitz_cli_test(demo_help ARGS demo --help MATCH "--seed")
kibitz_cli_test(games ARGS games MATCH "chess +2 players +engine,referee,bench .*gomoku.*go .*hearts +4 players +engine,referee .*diplomacy +7 players +engine,referee ")
kibitz_cli_test(games_verbose ARGS games --verbose MATCH "option null_move +bool default true.*option vct +bool default true")
kibitz_cli_test(version ARGS --version MATCH "kibitz [0-9]")
kibitz_cli_test(perft_startpos ARGS perft --depth 4 MATCH "Nodes searched: 197281\n")
kibitz_cli_test(perft_divide ARGS perft --depth 2 --divide
  --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  MATCH "e1g1: 43\n.*Nodes searched: 2039\n")
kibitz_cli_test(demo ARGS demo --perft-depth 3 --seed 3 MATCH "depth 3: +8902 nodes.*mate in 3.*move i8 \\(vcf\\).*Go \\(9x9.*points N .*22 orders")
# Errors: one line, non-zero exit.
kibitz_cli_test(unknown_command ARGS frobnicate
  MATCH "^kibitz: error: unknown command 'frobnicate' \\(see 'kibitz --help' for the list\\)\n$")
kibitz_cli_test(unknown_command_status WILL_FAIL ARGS frobnicate)
kibitz_cli_test(unknown_global_option ARGS --bogus
  MATCH "^kibitz: error: unknown option '--bogus' \\(see 'kibitz --help'\\)\n$")
kibitz_cli_test(bad_log_level ARGS --log-level loud games MATCH "^kibitz: error: unknown log level 'loud'")
kibitz_cli_test(bad_log_level_status WILL_FAIL ARGS --log-level loud games)
kibitz_cli_test(no_command ARGS MATCH "Usage: kibitz")
kibitz_cli_test(bad_option WILL_FAIL ARGS perft --depth 3 --bogus)
kibitz_cli_test(bad_option_message ARGS perft --depth 3 --bogus MATCH "^kibitz: error: [^\n]*bogus[^\n]*\n$")
kibitz_cli_test(bad_depth ARGS perft --depth abc MATCH "^kibitz: error: [^\n]*depth[^\n]*\n$")
kibitz_cli_test(bad_fen ARGS perft --depth 1 --fen "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  MATCH "^kibitz: error: FEN piece placement: unexpected character .9.\n$")
kibitz_cli_test(bad_fen_status WILL_FAIL ARGS perft --depth 1 --fen "8/8/8/8/8/8/8/8 w - - 0 1")
# Search: the bench signatures (committed golden values) are checked for every registry entry
# that has one by tests/unit/cli/bench_golden_test.cpp.
kibitz_cli_test(gomoku_bench_pipeline_needs_movetime ARGS bench --game gomoku --pipeline
  MATCH "^kibitz: error: --pipeline needs --game gomoku and --movetime\n$")
kibitz_cli_test(go_bench_rejects_alphabeta_options ARGS bench --game go --disable lmr
  MATCH "^kibitz: error: --pipeline, --plain, --disable, --option and --rule are for the alpha-beta games\n$")
# Gomoku's bench under another rule reads each of its 14 games under that rule.
kibitz_cli_test(gomoku_bench_exact5 ARGS bench --game gomoku --rule exact5 --depth 2 --verbose
  MATCH "^ 1 depth  2 [^\n]* exact5 f10 h7 [^\n]*\n(.*\n)*14 depth  2 [^\n]* exact5 j6 f10 i6 e11 k6 l6 g9 [^\n]*\n(.*\n)*Nodes searched")
kibitz_cli_test(gomoku_bench_renju ARGS bench --game gomoku --rule renju --depth 2 --verbose
  MATCH "14 depth  2 [^\n]* renju j6 ")
kibitz_cli_test(chess_bench_rejects_rule ARGS bench --depth 1 --rule exact5
  MATCH "^kibitz: error: --rule is for gomoku\n$")
kibitz_cli_test(gomoku_bench_bad_rule ARGS bench --game gomoku --rule ninuki MATCH "--rule: ninuki not in")
kibitz_cli_test(bench_bad_eval_file ARGS bench --depth 1 --option EvalFile=/nonexistent/x.nnue
  MATCH "^kibitz: error: EvalFile: cannot read network file '/nonexistent/x.nnue' \\(the hand-written evaluation runs\\)\n$")
kibitz_cli_test(bench_option_not_for_gomoku ARGS bench --game gomoku --option UseNNUE=false
  MATCH "^kibitz: error: --option is for chess")
kibitz_cli_test(bench_help ARGS bench --help MATCH "--disable")
kibitz_cli_test(bench_bad_technique ARGS bench --depth 1 --disable warp_drive
  MATCH "^kibitz: error: --disable: unknown technique 'warp_drive'[^\n]*\n$")
kibitz_cli_test(uci_help ARGS uci --help MATCH "UCI")
# Texel tuner: runs on a small file, names malformed lines, exits 2 when the data is unusable.
kibitz_cli_test(tune_help ARGS tune --help MATCH "--learning-rate")
kibitz_cli_test(tune_sample ARGS tune --data ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt --epochs 2
  MATCH "tune_sample.txt:5: expected 'FEN [|] result', found no '[|]'.*positions 4 K [0-9.]+ error")
kibitz_cli_test(tune_missing_file ARGS tune --data /nonexistent/kibitz.txt
  MATCH "^kibitz: error: cannot open data file '/nonexistent/kibitz.txt'\n$")
kibitz_cli_test(tune_missing_file_status WILL_FAIL ARGS tune --data /nonexistent/kibitz.txt)
# Gomoku's tuner: SGF records in (four self-play games), a weights file out; bad input is one
# line and status 2. A malformed --eval file stops the engine before it reads a command.
kibitz_cli_test(gomoku_tune_sample ARGS gomoku tune ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_sample.sgf
  --epochs 5 MATCH "positions 94 K [0-9.]+ error [0-9.]+ -> [0-9.]+")
kibitz_cli_test(gomoku_tune_sample_weights ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_sample.sgf --epochs 5
  MATCH "\"format\": \"kibitz-gomoku-eval\",\n  \"version\": 1,\n  \"rule\": \"freestyle\"")
kibitz_cli_test(gomoku_tune_missing_file ARGS gomoku tune /nonexistent/kibitz.sgf
  MATCH "^kibitz: error: cannot read '/nonexistent/kibitz.sgf'\n$")
kibitz_cli_test(gomoku_tune_not_sgf ARGS gomoku tune ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt
  MATCH "^kibitz: error: [^\n]*tune_sample.txt: sgf:1:1: expected '\\(' to start a game tree[^\n]*\n$")
kibitz_cli_test(gomoku_tune_not_sgf_status WILL_FAIL ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt)
# The shared Gomocup referee's games log (JSON lines) is read as records too: three games of a
# refereed match (Kibitz against itself with the hand-set weights), and the same games converted
# to SGF outside the program, give the same positions and the same fit (its K and errors move
# with the compiled-in weights it starts from). A malformed line is named, with status 2.
kibitz_cli_test(gomoku_tune_games_log ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --epochs 5
  MATCH "positions 52 K 0.4734 error 0.15260[0-9]* -> 0.07130[0-9]*")
kibitz_cli_test(gomoku_tune_games_log_as_sgf ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.sgf --epochs 5
  MATCH "positions 52 K 0.4734 error 0.15260[0-9]* -> 0.07130[0-9]*")
# --fit moves only the groups named (the side-to-move terms here) and says so in made_by.
kibitz_cli_test(gomoku_tune_fit_group ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --epochs 5 --fit to_move
  MATCH "squared error [0-9.]+ -> [0-9.]+; fitted to_move, the rest as started")
# --validation: records measured, not fitted. The same three games as SGF give the same
# positions, so their error before and after the fit is the training error.
kibitz_cli_test(gomoku_tune_validation ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --epochs 5
  --validation ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.sgf
  MATCH "positions 52 K 0.4734 error 0.152607 -> 0.071304\nvalidation: positions 52 from 3 games, error 0.152607 -> 0.071304\n")
# --label-depth: each position labelled by a search, the target a blend (here the score alone).
# The same positions, so against the results alone the held-out error starts where the
# unlabelled fit's does; made_by names the target. A depth out of range is refused.
kibitz_cli_test(gomoku_tune_labelled ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --epochs 5 --label-depth 4 --label-weight 1
  --validation ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.sgf
  MATCH "positions 52 K 0.4734 error [0-9.]+ -> [0-9.]+\nvalidation: positions 52 from 3 games, error [0-9.]+ -> [0-9.]+\nvalidation against the results alone: error 0.152607 -> [0-9.]+\n")
kibitz_cli_test(gomoku_tune_labelled_made_by ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --epochs 5 --label-depth 2
  MATCH "; target 0.5 x result \\+ 0.5 x a depth-2 search's score, squared error")
kibitz_cli_test(gomoku_tune_label_depth_zero WILL_FAIL ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --label-depth 0)
kibitz_cli_test(gomoku_tune_fit_bad_group WILL_FAIL ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_games_log.txt --fit tempo)
kibitz_cli_test(gomoku_tune_bad_games_log ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_bad_games_log.txt
  MATCH "^kibitz: error: [^\n]*gomoku_tune_bad_games_log.txt: line 2: move 3: h8 is not legal here\n$")
kibitz_cli_test(gomoku_tune_bad_games_log_status WILL_FAIL ARGS gomoku tune
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_tune_bad_games_log.txt)
# gomoku trace: white ("kibitz") leaves black's open three h8-j8 unanswered with a3, after which
# black wins by force (k8, an open four); of white's moves there only the two blocks, g8 and k8,
# keep black without a VCT (white's two stones make no four). Its earlier moves lose nothing,
# and after a4 black has its five. A malformed games log is one line naming it, status 2.
kibitz_cli_test(gomoku_trace ARGS gomoku trace ${CMAKE_CURRENT_LIST_DIR}/gomoku_trace_games_log.txt
  MATCH "game 1 ply 6: kibitz played a3; of [0-9]+ moves 2 keep the opponent without a VCT, 0 unknown\ngame 1 \\(kibitz as white, 1-0\\): 9 plies, first proven loss at ply 6 \\| \\.\\.LL\n1 games; a proven loss in 1 of them, a median 4 plies before the end; 1 with a move")
kibitz_cli_test(gomoku_trace_bad_games_log ARGS gomoku trace
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_trace_bad_games_log.txt
  MATCH "^kibitz: error: [^\n]*gomoku_trace_bad_games_log.txt:1: move 3 is not legal\n$")
kibitz_cli_test(gomoku_trace_bad_games_log_status WILL_FAIL ARGS gomoku trace
  ${CMAKE_CURRENT_LIST_DIR}/gomoku_trace_bad_games_log.txt)
kibitz_cli_test(gomoku_trace_not_json ARGS gomoku trace ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt
  MATCH "^kibitz: error: [^\n]*tune_sample.txt:1: not a JSON object\n$")
kibitz_cli_test(gomoku_eval_malformed ARGS gomocup --eval ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt
  MATCH "^kibitz: error: --eval: [^\n]*tune_sample.txt: gomoku eval weights: not JSON \\(byte 1\\)\n$")
kibitz_cli_test(gomoku_eval_malformed_status WILL_FAIL ARGS gomocup --eval
  ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt)
# kibitz match: help, a real match between in-process bots, and one-line errors for bad players.
kibitz_cli_test(match_help ARGS match --help MATCH "Examples:.*--sprt")
kibitz_cli_test(match_bots ARGS match --engine "name=strong bot=kibitz option.Hash=1" --engine bot=random
  --depth 2 --games 2 --max-moves 150 --no-progress
  MATCH "strong vs random\n  Games 2  W 2  D 0  L 0\n")
kibitz_cli_test(match_missing_engine ARGS match --engine bot=kibitz --engine cmd=/nonexistent/engine --depth 1
  MATCH "^kibitz: error: player 2 'engine': cannot run '/nonexistent/engine': No such file or directory\n$")
kibitz_cli_test(match_missing_engine_status WILL_FAIL ARGS match --engine bot=kibitz
  --engine cmd=/nonexistent/engine --depth 1)
kibitz_cli_test(match_bad_spec ARGS match --engine bot=kibitz --engine "cmd=x nodes=lots" --depth 1
  MATCH "^kibitz: error: --engine: nodes= needs a non-negative number, not 'lots'\n$")
kibitz_cli_test(match_no_limit ARGS match --engine bot=kibitz --engine bot=random
  MATCH "^kibitz: error: no limit for 'kibitz'")
kibitz_cli_test(match_bad_tc ARGS match --engine bot=kibitz --engine bot=random --tc 10+x
  MATCH "^kibitz: error: --tc: bad seconds 'x'")
kibitz_cli_test(match_bad_book ARGS match --engine bot=kibitz --engine bot=random --depth 1
  --openings /nonexistent/book.pgn MATCH "^kibitz: error: cannot read '/nonexistent/book.pgn'\n$")
# Kibitz's own UCI engine as an external process against an opponent that answers at once:
# no illegal move, crash or time loss (once a stale duplicated "bestmove" from a cin/cout
# tie race made every reply one move late).
kibitz_cli_test(match_uci_fast_opponent ARGS match
  --engine "name=uci cmd=$<TARGET_FILE:kibitz> uci option.Hash=1" --engine bot=random
  --tc 1+0.02 --games 4 --max-moves 40 --no-progress
  MATCH "\nuci +[0-9]+ +[0-9]+ +[0-9]+ +0 +0 +0\n")
# Go in kibitz match: the MCTS bot beats the random bot, and one-line errors for Go settings.
kibitz_cli_test(match_go_help ARGS match --help MATCH "--komi.*bot=mcts.*--game go --board-size 9")
kibitz_cli_test(match_go_bots ARGS match --game go --board-size 9 --engine "name=mcts bot=mcts"
  --engine bot=random --nodes 200 --games 2 --no-progress
  MATCH "^go match: 2 of 2 games finished in [0-9.]+ s

mcts vs random
  Games 2  W 2  D 0  L 0
")
kibitz_cli_test(match_go_bad_board_size ARGS match --game go --board-size 25 --engine bot=mcts
  --engine bot=random --nodes 10
  MATCH "^kibitz: error: --game: --board-size 25: Go boards are 5 to 19
$")
kibitz_cli_test(match_go_bad_board_size_status WILL_FAIL ARGS match --game go --board-size 25
  --engine bot=mcts --engine bot=random --nodes 10)
kibitz_cli_test(match_komi_not_go ARGS match --komi 6.5 --engine bot=kibitz --engine bot=random
  --depth 1 MATCH "^kibitz: error: --komi: chess has no komi \\(only Go has\\)
$")
# kibitz gtp: help, and a piped session.
kibitz_cli_test(gtp_help ARGS gtp --help MATCH "--visits.*--komi")
add_test(NAME cli.gtp_pipe
  COMMAND sh -c "printf 'protocol_version\\nquit\\n' | \"$0\" gtp" $<TARGET_FILE:kibitz>)
set_tests_properties(cli.gtp_pipe PROPERTIES LABELS "cli;unit" PASS_REGULAR_EXPRESSION "^= 2\n\n= \n\n$")
# kibitz go db: a missing database is a one-line error (and is not created: the directory does
# not exist either); bad options are usage errors.
kibitz_cli_test(go_db_help ARGS go db --help MATCH "stats.*prune.*export")
kibitz_cli_test(go_db_stats_missing ARGS go db stats --db /nonexistent/kibitz-go.db
  MATCH "^kibitz: error: /nonexistent/kibitz-go.db: no such file\n$")
kibitz_cli_test(go_db_stats_missing_status WILL_FAIL ARGS go db stats --db /nonexistent/kibitz-go.db)
kibitz_cli_test(go_db_export_missing ARGS go db export --db /nonexistent/kibitz-go.db
  MATCH "^kibitz: error: /nonexistent/kibitz-go.db: no such file\n$")
kibitz_cli_test(go_db_prune_missing ARGS go db prune --db /nonexistent/kibitz-go.db
  MATCH "^kibitz: error: /nonexistent/kibitz-go.db: no such file\n$")
kibitz_cli_test(go_db_prune_bad_limit ARGS go db prune --max-contexts -1
  MATCH "^kibitz: error: --max-contexts: Value -1 is negative \\(must be 0 or more\\)\n$")
kibitz_cli_test(go_db_export_not_sqlite ARGS go db export --db ${CMAKE_CURRENT_LIST_DIR}/tune_sample.txt
  MATCH "^kibitz: error: [^\n]*tune_sample.txt: not a SQLite database \\(file is not a database\\)\n$")
# kibitz go selfplay / ingest and kibitz gtp --config: the deep search from the command line.
kibitz_cli_test(go_help ARGS go --help MATCH "selfplay.*ingest.*db")
kibitz_cli_test(go_selfplay_small ARGS go selfplay --moves 6 --config
  ${CMAKE_CURRENT_LIST_DIR}/../data/go/deep_small.yaml --preset deeper
  MATCH "Move 1: plays [A-J][1-9] \\[unc=[0-9.]+, DEEP, depth [12], [0-9]+ms\\].*Game 1 Statistics:.*Deep searches: [1-9].*game 1 moves 6 ")
kibitz_cli_test(go_selfplay_no_deep ARGS go selfplay --moves 4 --no-deep --visits 50 --quiet
  MATCH "^game 1 moves 4 standard 4 cached 0 deep 0 playouts [0-9]+ time_ms [0-9]+\n$")
kibitz_cli_test(go_selfplay_bad_preset ARGS go selfplay --config
  ${CMAKE_CURRENT_LIST_DIR}/../data/go/deep_small.yaml --preset blitz
  MATCH "^kibitz: error: [^\n]*deep_small.yaml: no preset 'blitz' \\(the file has: deeper\\)\n$")
kibitz_cli_test(go_selfplay_preset_without_config ARGS go selfplay --preset fast
  MATCH "^kibitz: error: --preset fast needs --config")
kibitz_cli_test(go_ingest_missing ARGS go ingest /nonexistent/games --db :memory:
  MATCH "^kibitz: error: /nonexistent/games: no such file or directory\n$")
kibitz_cli_test(gtp_bad_config ARGS gtp --config /nonexistent/go.yaml MATCH "^kibitz: error: [^\n]*go.yaml[^\n]*\n$")
add_test(NAME cli.gtp_deep_genmove
  COMMAND sh -c "printf 'boardsize 9\\ngenmove b\\nquit\\n' | \"$0\" gtp --config \"$1\" 2>/dev/null"
  $<TARGET_FILE:kibitz> ${CMAKE_CURRENT_LIST_DIR}/../data/go/deep_small.yaml)
set_tests_properties(cli.gtp_deep_genmove PROPERTIES LABELS "cli;unit"
  PASS_REGULAR_EXPRESSION "^= \n\n= [A-J][1-9]\n\n= \n\n$")
# kibitz diplomacy adjudicate and datc (src/cli/diplomacy_rules.cpp).
set(KIBITZ_DIPLOMACY_DATA ${CMAKE_CURRENT_LIST_DIR}/../data/diplomacy)
kibitz_cli_test(diplomacy_adjudicate ARGS diplomacy adjudicate
  ${KIBITZ_DIPLOMACY_DATA}/adjudicate_state.json ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt
  MATCH "^S1901M Spring 1901 movement\nAustria: F ADR S A TRI - VEN: SUCCEEDS\nAustria: A TRI - VEN: SUCCEEDS\nAustria: A VIE - TYR: FAILS\nItaly: A VEN H: FAILS\nItaly: A TYR S A VEN: FAILS\nGermany: A MUN - NAP: FAILS \\(illegal: [^\n]*; treated as A MUN H, which succeeds\\)\ndislodged: Italy A VEN \\(attacked from TRI\\)\nnext phase: S1901R\n\\{\n.*\"phase\": \"S1901R\".*\"attacker_from\": \"tri\"")
kibitz_cli_test(diplomacy_adjudicate_help ARGS diplomacy adjudicate --help MATCH "ORDERS.txt")
kibitz_cli_test(diplomacy_adjudicate_bad_order ARGS diplomacy adjudicate
  ${KIBITZ_DIPLOMACY_DATA}/adjudicate_state.json ${KIBITZ_DIPLOMACY_DATA}/adjudicate_bad_orders.txt
  MATCH "^kibitz: error: [^\n]*adjudicate_bad_orders.txt:2: unknown province 'xyz'\n$")
kibitz_cli_test(diplomacy_adjudicate_bad_order_status WILL_FAIL ARGS diplomacy adjudicate
  ${KIBITZ_DIPLOMACY_DATA}/adjudicate_state.json ${KIBITZ_DIPLOMACY_DATA}/adjudicate_bad_orders.txt)
kibitz_cli_test(diplomacy_adjudicate_missing_state ARGS diplomacy adjudicate
  /nonexistent/state.json ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt
  MATCH "^kibitz: error: /nonexistent/state.json: cannot read the file\n$")
kibitz_cli_test(diplomacy_adjudicate_bad_json ARGS diplomacy adjudicate
  ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt
  MATCH "^kibitz: error: [^\n]*adjudicate_orders.txt: state JSON: [^\n]*\n$")
kibitz_cli_test(diplomacy_adjudicate_bad_json_status WILL_FAIL ARGS diplomacy adjudicate
  ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt ${KIBITZ_DIPLOMACY_DATA}/adjudicate_orders.txt)
kibitz_cli_test(diplomacy_datc ARGS diplomacy datc ${KIBITZ_DIPLOMACY_DATA}/datc_small.txt
  MATCH "^PASS 6.D.2\nPASS 6.H.5\nPASS 6.I.7\n3 passed, 0 failed\n$")
kibitz_cli_test(diplomacy_datc_verbose ARGS diplomacy datc ${KIBITZ_DIPLOMACY_DATA}/datc_small.txt -v
  MATCH "\nPASS 6.H.5\n    Turkey: F ANK R BLA: FAILS \\(illegal: [^\n]*; dropped\\)\n    disbanded: Turkey F ANK\n")
kibitz_cli_test(diplomacy_datc_v3_1 ARGS diplomacy datc ${KIBITZ_DIPLOMACY_DATA}/datc_v3_1.txt
  MATCH "\n[0-9]+ passed, 0 failed\n$")
kibitz_cli_test(diplomacy_datc_wrong ARGS diplomacy datc ${KIBITZ_DIPLOMACY_DATA}/datc_small_wrong.txt
  MATCH "^PASS right\nFAIL wrong: missing Austria A TYR; unexpected Austria A VIE\n1 passed, 1 failed\n$")
kibitz_cli_test(diplomacy_datc_wrong_status WILL_FAIL ARGS diplomacy datc
  ${KIBITZ_DIPLOMACY_DATA}/datc_small_wrong.txt)
kibitz_cli_test(diplomacy_datc_malformed ARGS diplomacy datc ${KIBITZ_DIPLOMACY_DATA}/datc_malformed.txt
  MATCH "^kibitz: error: [^\n]*datc_malformed.txt:7: ORDERS outside a case\n$")
kibitz_cli_test(diplomacy_datc_malformed_status WILL_FAIL ARGS diplomacy datc
  ${KIBITZ_DIPLOMACY_DATA}/datc_malformed.txt)
kibitz_cli_test(diplomacy_datc_missing ARGS diplomacy datc /nonexistent/datc.txt
  MATCH "^kibitz: error: /nonexistent/datc.txt: cannot read the file\n$")
# kibitz diplomacy play: one game printed phase by phase, the summary of several, one-line
# errors for bad bots and numbers.
kibitz_cli_test(diplomacy_play_help ARGS diplomacy play --help
  MATCH "--bots.*--seed.*--max-year.*--games.*--rotate.*--movetime.*--strength.*--iterations.*--quiet.*--json")
kibitz_cli_test(diplomacy_play_game ARGS diplomacy play --bots heuristic --seed 3 --max-year 1902
  MATCH "^S1901M\n  Austria: [^\n]*\n  England: [^\n]*\n.*F1901M\n.*  centres: Austria [0-9]+, England [0-9]+, France [0-9]+, Germany [0-9]+, Italy [0-9]+, Russia [0-9]+, Turkey [0-9]+\nW1901A\n.*result: draw among [^\n]*\\(7 survivors, after [FW]1902[MRA]\\)\ncentres: Austria [0-9]+[^\n]*\n$")
kibitz_cli_test(diplomacy_play_quiet ARGS diplomacy play --bots random --seed 5 --max-year 1905 --quiet
  MATCH "^result: (solo|draw) [^\n]*\ncentres: Austria [0-9]+[^\n]*\n$")
kibitz_cli_test(diplomacy_play_summary ARGS diplomacy play
  --bots heuristic,random,random,random,random,random,random --games 7 --rotate --max-year 1912 --quiet
  MATCH "^7 games, seeds 1..7, max year 1912, bots rotated over the powers\nbot [^\n]*\nheuristic +7 +[0-9.]+ [^\n]*\nrandom +42 +[0-9.]+ [^\n]*\n$")
kibitz_cli_test(diplomacy_play_bad_bot ARGS diplomacy play --bots alpha
  MATCH "^kibitz: error: --bots: unknown bot 'alpha' \\(known: random, heuristic, rm\\)\n$")
kibitz_cli_test(diplomacy_play_bad_bot_status WILL_FAIL ARGS diplomacy play --bots alpha)
kibitz_cli_test(diplomacy_play_bad_bot_count ARGS diplomacy play --bots random,heuristic
  MATCH "^kibitz: error: --bots 'random,heuristic': one bot name, or 7 \\(one per power in map order\\)\n$")
kibitz_cli_test(diplomacy_play_bad_year ARGS diplomacy play --max-year 1800
  MATCH "^kibitz: error: --max-year 1800: from 1901 to 9999\n$")
kibitz_cli_test(diplomacy_play_bad_games ARGS diplomacy play --games 0
  MATCH "^kibitz: error: --games 0: from 1 to 10000000\n$")
kibitz_cli_test(diplomacy_play_bad_seed ARGS diplomacy play --seed abc
  MATCH "^kibitz: error: [^\n]*--seed[^\n]*\n$")
kibitz_cli_test(diplomacy_play_bad_json ARGS diplomacy play --json /nonexistent/kibitz-dip.json
  MATCH "^kibitz: error: --json: cannot write '/nonexistent/kibitz-dip.json'\n$")
# kibitz diplomacy search (src/cli/diplomacy_search.cpp): the opening with a fixed iteration
# count and seed; errors.
kibitz_cli_test(diplomacy_search ARGS diplomacy search --power France --iterations 30 --seed 2
  MATCH "^S1901M France orders:\n  [AF] [A-Z/]+ [^\n]*\n  [AF] [A-Z/]+ [^\n]*\n  [AF] [A-Z/]+ [^\n]*\nscore [-0-9.]+  nodes [0-9]+  iterations 30  time [0-9]+ ms of [0-9]+ \\(75% search share\\)\ncandidates: [0-9]+ ours, [0-9]+ for the other powers; strategy entropy [0-9.]+ -> [0-9.]+\nstrategy over our candidates")
kibitz_cli_test(diplomacy_search_bad_power ARGS diplomacy search --power Narnia
  MATCH "^kibitz: error: --power: unknown power 'Narnia'\n$")
kibitz_cli_test(diplomacy_search_retreat_phase ARGS diplomacy search
  ${KIBITZ_DIPLOMACY_DATA}/retreat_state.json --power Italy
  MATCH "^kibitz: error: [^\n]*retreat_state.json: the search plays movement phases, not the Spring 1901 retreat\n$")
kibitz_cli_test(diplomacy_search_missing ARGS diplomacy search /nonexistent/s.json --power Italy
  MATCH "^kibitz: error: /nonexistent/s.json: cannot read the file\n$")
kibitz_cli_test(diplomacy_play_rm ARGS diplomacy play --bots rm,heuristic,heuristic,heuristic,heuristic,heuristic,heuristic
  --iterations 4 --max-year 1902 --quiet
  MATCH "^result: draw [^\n]*\ncentres: Austria [0-9]+[^\n]*\n$")
# Hearts and Diplomacy in kibitz match: in-process bots with the game's own measure, and
# one-line errors for external players and settings the games do not have.
kibitz_cli_test(match_hearts_bots ARGS match --game hearts --engine bot=rule --engine bot=random
  --games 8 --no-progress
  MATCH "^hearts match: 8 of 8 games finished in [0-9.]+ s\n\nrule vs random\n  Games 8 .*\n  PPH \\(lower is better\\): rule [0-9.]+  random [0-9.]+  difference -[0-9.]+ ± [0-9.]+\n")
kibitz_cli_test(match_hearts_external ARGS match --game hearts --engine bot=rule
  --engine "cmd=kibitz hearts serve"
  MATCH "^kibitz: error: player 2 '[^']*': hearts has no engine protocol in kibitz match: use an in-process bot \\(bot=random, rule or search\\)\n$")
kibitz_cli_test(match_hearts_external_status WILL_FAIL ARGS match --game hearts --engine bot=rule
  --engine "cmd=kibitz hearts serve")
kibitz_cli_test(match_hearts_tc ARGS match --game hearts --engine bot=search --engine bot=rule
  --tc 10+0.1 MATCH "^kibitz: error: player 1 'search': hearts bots have no clock \\(--tc\\)[^\n]*\n$")
kibitz_cli_test(match_diplomacy_bots ARGS match --game diplomacy --engine bot=heuristic
  --engine bot=random --games 2 --max-year 1904 --no-progress
  MATCH "^diplomacy match: 2 of 2 games finished in [0-9.]+ s\n\nheuristic vs random\n.*  centres per power: heuristic [0-9.]+  random [0-9.]+  difference")
kibitz_cli_test(match_diplomacy_bad_bot ARGS match --game diplomacy --engine bot=heuristic
  --engine bot=kibitz
  MATCH "^kibitz: error: player 2 'kibitz': no diplomacy bot 'kibitz' \\(bots: random, heuristic, rm\\)\n$")
kibitz_cli_test(match_diplomacy_bad_year ARGS match --game diplomacy --max-year 1800
  --engine bot=heuristic --engine bot=random
  MATCH "^kibitz: error: --game: --max-year 1800: from 1901 to 9999\n$")
kibitz_cli_test(match_max_year_not_diplomacy ARGS match --max-year 1910 --engine bot=kibitz
  --engine bot=random --depth 1
  MATCH "^kibitz: error: --game: chess has no --max-year \\(only Diplomacy has\\)\n$")

# Issue 22: every numeric option refuses a negative value (komi is the one signed setting).
kibitz_cli_test(gtp_negative_visits ARGS gtp --visits -1
  MATCH "^kibitz: error: --visits: Value -1 is negative \\(must be 0 or more\\)\n$")
kibitz_cli_test(gtp_negative_visits_status WILL_FAIL ARGS gtp --visits -1)
kibitz_cli_test(gomocup_negative_movetime ARGS gomocup --movetime -5
  MATCH "^kibitz: error: --movetime: Value -5 is negative")
kibitz_cli_test(hearts_negative_seed ARGS hearts match --seed -1 MATCH "^kibitz: error: --seed: Value -1 is negative")
kibitz_cli_test(match_negative_komi_allowed ARGS match --komi -3.5 --help MATCH "Usage")

# Issue 24: the RAVE weight of the Go engine; 0 turns RAVE off and still plays.
kibitz_cli_test(gtp_negative_rave_k ARGS gtp --rave-k -1
  MATCH "^kibitz: error: --rave-k: Value -1 is negative \\(must be 0 or more\\)\n$")
add_test(NAME cli.gtp_no_rave
  COMMAND sh -c "printf 'boardsize 9\\ngenmove b\\nquit\\n' | \"$0\" gtp --visits 50 --rave-k 0" $<TARGET_FILE:kibitz>)
set_tests_properties(cli.gtp_no_rave PROPERTIES LABELS "cli;unit" PASS_REGULAR_EXPRESSION "^= \n\n= [A-J][1-9]\n\n= \n\n$")
kibitz_cli_test(gtp_nan_rave_k ARGS gtp --rave-k nan MATCH "^kibitz: error: --rave-k: a finite number[^\n]*\n$")

# The learned playout policy: the built-in weights play, a missing weights file or a bad
# trainer option is refused with one line.
add_test(NAME cli.gtp_learned_playouts
  COMMAND sh -c "printf 'boardsize 9\\ngenmove b\\nquit\\n' | \"$0\" gtp --visits 50 --playouts learned" $<TARGET_FILE:kibitz>)
set_tests_properties(cli.gtp_learned_playouts PROPERTIES LABELS "cli;unit" PASS_REGULAR_EXPRESSION "^= \n\n= [A-J][1-9]\n\n= \n\n$")
kibitz_cli_test(gtp_missing_playout_weights ARGS gtp --playouts /nonexistent/playout.json
  MATCH "^kibitz: error: cannot read '/nonexistent/playout.json'\n$")
kibitz_cli_test(train_playout_bad_iterations ARGS go train-playout x --iterations 0 --out /tmp/kibitz_unused.json
  MATCH "^kibitz: error: --iterations: 1 to 1000\n$")
kibitz_cli_test(bench_go_learned_playouts ARGS bench --game go --go-playouts learned --playouts 200
  MATCH "Playouts/second : [1-9][0-9]*\n")
# train-nnue --init: a network that does not load is refused in one line before any data is read.
kibitz_cli_test(train_nnue_missing_init ARGS train-nnue --data ${CMAKE_SOURCE_DIR}/data/chess/network.md
  --init /nonexistent/x.nnue --out /tmp/kibitz_unused.nnue
  MATCH "^kibitz: error: cannot read network file '/nonexistent/x.nnue'\n$")
# Engine options from the command line (--option) and YAML files (--option-file), checked
# against the engine's declarations before the protocol starts.
kibitz_cli_test(uci_option_needs_value ARGS uci --option Hash
  MATCH "^kibitz: error: --option Hash: expected NAME=VALUE\n$")
kibitz_cli_test(uci_option_out_of_range ARGS uci --option Hash=0
  MATCH "^kibitz: error: option Hash: 0 is out of range \\(1 to 65536\\)\n$")
kibitz_cli_test(gtp_unknown_option ARGS gtp --option Threadz=2
  MATCH "^kibitz: error: go engine has no option 'Threadz' \\(options: Threads, resign, seed, cleanup, handicap\\)\n$")
kibitz_cli_test(gomocup_option_file_missing ARGS gomocup --option-file /nonexistent/options.yaml
  MATCH "^kibitz: error: cannot open config file '/nonexistent/options.yaml'\n$")
# kibitz selfplay over the registry: any game with a position text and an engine.
kibitz_cli_test(selfplay_gomoku ARGS selfplay --game gomoku --movetime 20 --random-plies 2 --games 1
  --out ${CMAKE_CURRENT_BINARY_DIR}/selfplay_gomoku.txt MATCH "^1 gomoku games, [0-9]+ positions written to ")
kibitz_cli_test(selfplay_go ARGS selfplay --game go --start 5 --nodes 50 --games 1
  --out ${CMAKE_CURRENT_BINARY_DIR}/selfplay_go.txt MATCH "^1 go games, [0-9]+ positions written to ")
kibitz_cli_test(selfplay_no_diplomacy ARGS selfplay --game diplomacy --out /dev/null
  MATCH "^kibitz: error: --game: diplomacy not in \\{chess,gomoku,go,hearts\\}\n$")
kibitz_cli_test(selfplay_bad_start ARGS selfplay --game go --start 30 --out /dev/null
  MATCH "^kibitz: error: --start: go board size '30' is not supported \\(5 to 19\\)\n$")
kibitz_cli_test(selfplay_chess_has_no_start ARGS selfplay --start 9 --out /dev/null
  MATCH "^kibitz: error: selfplay: chess plays --nodes from --openings")
# A PostgreSQL store that cannot be reached: one line, the password hidden.
kibitz_cli_test(go_db_postgres_unreachable ARGS go db stats --db postgresql://kibitz:secret@127.0.0.1:1/x
  MATCH "^kibitz: error: postgresql://kibitz:\\*\\*\\*@127\\.0\\.0\\.1:1/x: [^\n]*\n$")
