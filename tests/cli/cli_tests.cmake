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
kibitz_cli_test(games ARGS games MATCH "chess")
kibitz_cli_test(version ARGS --version MATCH "kibitz [0-9]")
kibitz_cli_test(perft_startpos ARGS perft --depth 4 MATCH "Nodes searched: 197281\n")
kibitz_cli_test(perft_divide ARGS perft --depth 2 --divide
  --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  MATCH "e1g1: 43\n.*Nodes searched: 2039\n")
kibitz_cli_test(demo ARGS demo --perft-depth 3 --seed 3 MATCH "depth 3: +8902 nodes.*\\[Result \"")
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
