use std::env;

enum Command {
    Add(String),
    List,
    Export(String),
}

fn parse(args: &[String]) -> Option<Command> {
    match args.first().map(String::as_str) {
        Some("add") => Some(Command::Add(args.get(1)?.clone())),
        Some("list") => Some(Command::List),
        Some("export") => Some(Command::Export(args.get(1).cloned().unwrap_or_else(|| "notes.csv".into()))),
        _ => None,
    }
}

fn main() {
    let mut args: Vec<String> = env::args().skip(1).collect();
    if args.is_empty() {
        args = vec!["export".into(), "backup.csv".into()];
    }
    let notes = vec!["buy milk".to_string(), "call Sam".to_string()];
    match parse(&args) {
        Some(Command::Add(text)) => println!("added: {text}"),
        Some(Command::List) => {
            for (i, n) in notes.iter().enumerate() {
                println!("{i}: {n}");
            }
        }
        Some(Command::Export(path)) => {
            println!("exporting {} notes to {path}", notes.len());
            todo!()
        }
        None => eprintln!("usage: notes add|list|export"),
    }
}
