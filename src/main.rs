use std::process::ExitCode;

fn main() -> ExitCode {
    memwb::cli::main()
}
