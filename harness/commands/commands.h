/* The subcommands of bin/animbench, each taking the arguments after its name. */
#ifndef ANIMBENCH_COMMANDS_H
#define ANIMBENCH_COMMANDS_H

int cmd_tables(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv, int full_argc, char **full_argv);
int cmd_sweep(int argc, char **argv, int full_argc, char **full_argv);
int cmd_bench(int argc, char **argv, int full_argc, char **full_argv);
int cmd_export(int argc, char **argv);
int cmd_match(int argc, char **argv, int full_argc, char **full_argv);
int cmd_compare(int argc, char **argv, int full_argc, char **full_argv);
int cmd_summary(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_merge(int argc, char **argv, int full_argc, char **full_argv);
int cmd_table(int argc, char **argv);
int cmd_results_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_scene(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_gate(int argc, char **argv);

#endif
