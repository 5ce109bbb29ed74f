"""The shapes the random sample's no-event pastes held (tests/corpus/sample/, 2026-12-02): each read as an error from a
verbatim snippet of a real paste (its issue named), and its look-alikes with no error left alone."""

from __future__ import annotations

from leafexplain.extract import events_in, finish
from leafexplain.models import ErrorEvent


def extract_events(text: str) -> list[ErrorEvent]:
    return finish(events_in(text))


def no_events(text: str) -> bool:
    """Nothing found, not even a guess."""
    return [e for e in finish(events_in(text, bare=False)) if not e.tentative] == []


def one(text: str) -> ErrorEvent:
    [event] = [e for e in extract_events(text) if not e.tentative]
    return event


# An exception line inside a sentence


def test_an_exception_line_inside_an_english_sentence() -> None:
    # https://github.com/pandas-dev/pandas/issues/14847
    text = (
        "I work with files were exported from stream twitter . but when run code then error : KeyError: 'text' on "
        "tweets['python'] = tweets['text'].apply(lambda tweet: word_in_text('python', tweet)). how to fix it ? "
        "thank everyone..!.\n"
    )
    event = one(text)
    assert (event.extractor, event.error_type) == ("python-prose", "KeyError")
    assert event.message.startswith("'text' on tweets")
    # https://github.com/iit-cs579/main/issues/121
    event = one(
        "I am getting this error TypeError: 1615 is not JSON serializable\nwhen I run the json.dump(). Can you "
        "please give me some pointers that will help debug the error.\n"
    )
    assert (event.error_type, event.message) == ("TypeError", "1615 is not JSON serializable")


def test_an_exception_line_inside_a_chinese_sentence_ends_where_the_chinese_goes_on() -> None:
    # https://github.com/LiPang/HIRDiff/issues/8
    event = one(
        "作者您好，我在运行代码的时候遇到了这个问题：TypeError: unsupported Python data type: numpy.ndarray，"
        "请问如何解决这个问题呢？谢谢您！\n"
    )
    assert (event.error_type, event.message) == ("TypeError", "unsupported Python data type: numpy.ndarray")
    # https://github.com/TMElyralab/MuseTalk/issues/54: the class glued to the Chinese before it
    event = one("环境是按照requirement.txt创建的，运行时候提示ValueError: transformers.__spec__ is None\n")
    assert (event.error_type, event.message) == ("ValueError", "transformers.__spec__ is None")
    # https://github.com/Lordog/dive-into-llms/issues/13
    event = one(
        "但跑第一章的课程代码出现 RuntimeError: Placeholder storage has not been allocated on MPS device! 的错误，"
        "求问下需要怎么做适配呢\n"
    )
    assert event.message == "Placeholder storage has not been allocated on MPS device!"


def test_a_message_translated_after_a_full_width_colon() -> None:
    # https://github.com/ddean2009/MoneyPrinterPlus/issues/132
    text = (
        "AttributeError：模块“torch”没有属性“Tensor”\n"
        'File "C:\\Users\\张志兴\\Desktop\\MoneyPrinterPlus-windows\\services\\audio\\chattts_service.py", line 55, '
        "in <module>\n"
        "    def encode_spk_emb(spk_emb: torch.Tensor) -> str:\n"
    )
    event = one(text)
    assert (event.error_type, event.message) == ("AttributeError", "模块“torch”没有属性“Tensor”")


def test_emphasis_around_an_inline_exception_is_not_its_message() -> None:
    # https://github.com/Ext-Creators/discord-ext-ipc/issues/11
    event = one(
        "Sometimes I getting This Error: **OSError: [WinError 10038] an operation was attempted on something "
        "that is not a socket**\nI thinking this error comes when I refresh page\n"
    )
    assert event.error_type == "OSError"
    assert event.message == "[WinError 10038] an operation was attempted on something that is not a socket"
    # https://github.com/pytorch/tutorials/issues/8: an inline code mark opened, closed on the next line
    event = one(
        "`RuntimeError: cuda runtime error (8) : invalid device function at /data/users/soumith/miniconda2/"
        "conda-bld/pytorch-0.1.6_1484802121799/work/torch/lib/THC/generated/../generic/THCTensorMathPointwise.cu:246\n"
        "`\n"
    )
    assert event.error_type == "RuntimeError" and event.message.startswith("cuda runtime error (8)")


def test_an_exception_line_alone_with_no_message() -> None:
    # https://github.com/jacroe/pidora/issues/71: a library's class named in full
    event = one("It looks like this...\nrequests.exceptions.ConnectionError\n")
    assert (event.error_type, event.message) == ("requests.exceptions.ConnectionError", "")
    # https://github.com/pytorch/pytorch/issues/13810: IPython's line for an exception with no message
    text = (
        "~/anaconda3/envs/PyTorch/lib/python3.6/site-packages/torch/nn/modules/module.py in forward(self, *input)\n"
        "     81             registered hooks while the latter silently ignores them.\n"
        '     82         """\n'
        "---> 83         raise NotImplementedError\n"
        "     84 \n"
        "\n"
        "NotImplementedError:\n"
    )
    event = one(text)
    assert (event.error_type, event.message) == ("NotImplementedError", "")
    # https://github.com/swift-lang/swift-t/pull/125: numpy's message starts on the line after the class
    text = (
        "===\n"
        "ImportError: \n"
        "Importing the multiarray numpy extension module failed.  Most\n"
        "likely you are trying to import a failed build of numpy.\n"
        "\n"
        "Original error was: /usr/local/lib/python2.7/dist-packages/numpy/core/multiarray.so: undefined symbol\n"
    )
    event = one(text)
    assert event.error_type == "ImportError"
    assert event.message.startswith("Importing the multiarray numpy extension module failed.")


def test_sentences_that_only_name_an_exception_are_no_error() -> None:
    assert no_events("The function raises a ValueError when the input is empty.\n")
    assert no_events("See ValueError, TypeError and KeyError in the docs.\n")
    assert no_events("class MyError(Exception):\n    pass\n")
    assert no_events("except json.JSONDecodeError as e:\n")
    assert no_events("Errors: 0, Warnings: 2\n")
    assert no_events("myValueError: not a class of anyone's\n")
    assert no_events("Error: 0 files\n")
    # https://github.com/QingdaoU/OnlineJudge/issues/353: classes listed in a sentence, Chinese after the colon
    assert no_events(
        "目前Python 常见报错类型，如TypeError，AttributeError，NameError，KeyError，IndexError，IndentationError，"
        "TabError:代码提交后都是显示成Runtime error，且没有更多信息。\n"
    )
    # https://github.com/DLR-RM/RAFCON/issues/819: a docstring's field
    assert no_events(':param int value: foobar\n:raises exceptions.ValueError: if something is wrong\n"""\n')
    # https://github.com/elliegoldstein/quicksilver/issues/443: a wasm trap in a JavaScript console, not Python's
    assert no_events("rustydowndown.js:474 Uncaught RuntimeError: unreachable\n")


# A Jupyter traceback cut before its last line


def test_a_jupyter_traceback_cut_before_its_message_is_its_header_s_class() -> None:
    # https://github.com/lucidrains/audiolm-pytorch/issues/229
    text = (
        "FileNotFoundError                         Traceback (most recent call last)\n"
        "Input In [4], in <cell line: 8>()\n"
        "      6 import urllib.request\n"
        "      7 import tarfile\n"
        "----> 8 from audiolm_pytorch import SoundStream, SoundStreamTrainer, HubertWithKmeans\n"
        "      9 from torch import nn\n"
        "\n"
        "File D:\\audiolm-pytorch\\audiolm_pytorch\\audiolm_pytorch.py:13, in <module>\n"
        "     10 import torch.nn.functional as F\n"
        "---> 13 import torchaudio\n"
    )
    event = one(text)
    assert (event.extractor, event.error_type, event.message) == ("python-jupyter", "FileNotFoundError", "")
    assert event.location.file.endswith("audiolm_pytorch.py") and event.location.line == 13
    # A header alone, with no frame after it, is no traceback.
    assert no_events("ValueError                                Traceback (most recent call last)\n")


def test_vs_code_notebook_links_around_line_numbers() -> None:
    # https://github.com/run-llama/llama_index/issues/11461
    text = (
        "---------------------------------------------------------------------------\n"
        "RuntimeError                              Traceback (most recent call last)\n"
        "Cell In[10], [line 16](vscode-notebook-cell:?execution_count=10&line=16)\n"
        "     [13](vscode-notebook-cell:?execution_count=10&line=13) else:\n"
        "---> [16](vscode-notebook-cell:?execution_count=10&line=16)     vector_index_chunk = "
        "VectorStoreIndex(all_nodes,storage_context=storage_context, service_context=service_context)\n"
    )
    event = one(text)
    assert (event.error_type, event.location.file, event.location.line) == ("RuntimeError", "Cell In[10]", 16)


# A traceback opened by a code mark, or with a line a console wrapped


def test_a_traceback_opened_by_a_backtick_on_its_header_line() -> None:
    # https://github.com/zihangdai/mos/issues/7
    text = (
        "`Traceback (most recent call last):\n"
        '  File "/Users/TONY/Downloads/mos-master/model.py", line 131, in <module>\n'
        "    model(input, hidden)\n"
        '  File "/Users/TONY/anaconda/lib/python3.6/site-packages/torch/nn/backends/backend.py", line 10, '
        "in __getattr__\n"
        "    raise NotImplementedError\n"
        "NotImplementedError\n"
        "`\n"
    )
    event = one(text)
    assert (event.extractor, event.error_type, event.message) == ("python-traceback", "NotImplementedError", "")
    assert len(event.frames) == 2


def test_a_file_line_wrapped_at_the_console_s_width() -> None:
    # https://github.com/jpbarraca/mail-trends/issues/2
    text = (
        "Traceback (most recent call last):\n"
        '  File "main.py", line 95, in GetMessageInfos\n'
        "    m.SelectMailbox(mailbox)\n"
        '  File "C:\\Jan\\downloads\\mail-trends-4a01757d06ea3e5a43ba3e051c80e3bacb574d9c\\ma\n'
        'il.py", line 187, in __AssertOk\n'
        '    assert response == "OK"\n'
        "AssertionError\n"
    )
    event = one(text)
    assert event.error_type == "AssertionError"
    assert event.location.file.endswith("\\mail.py") and event.location.line == 187


# rustc and Rust panics


def test_rustc_s_error_code_as_a_web_page_links_it() -> None:
    # https://github.com/rust-lang/rust/issues/43608
    text = (
        "error[[E0308]](https://doc.rust-lang.org/nightly/error_codes/E0308.html): mismatched types\n"
        "    --> src/main.rs:5:15\n"
        "     |\n"
        "   5 |     ptr::read(&a)\n"
        "     |     --------- ^^ expected `*const ()`, found `&{integer}`\n"
    )
    event = one(text)
    assert (event.extractor, event.code, event.message) == ("rustc", "E0308", "mismatched types")


def test_a_rustc_diagnostic_with_notes_and_no_span() -> None:
    # https://github.com/AlexsJones/llmfit/issues/54
    text = (
        "error: linker `link.exe` not found\n"
        "  |\n"
        "  = note: program not found\n"
        "\n"
        "note: the msvc targets depend on the msvc linker but `link.exe` was not found\n"
    )
    event = one(text)
    assert (event.extractor, event.message) == ("rustc", "linker `link.exe` not found")
    assert "program not found" in " ".join(event.detail)
    # cargo's own `error:` lines draw no gutter: still none of rustc's.
    assert no_events("error: no bin target named `foo`\n\n  |\n")


def test_a_panic_s_place_and_message_joined_on_one_line() -> None:
    # https://github.com/tracel-ai/burn/issues/1282: a browser console's source prefix, the two lines joined
    text = (
        "panic : \nimage_classification_web.js:478 panicked at burn\\burn-compute\\src\\compute.rs:77:17: "
        "Client already created for device BestAvailable\n"
    )
    event = one(text)
    assert (event.error_type, event.message) == ("panic", "Client already created for device BestAvailable")
    assert (event.location.file, event.location.line) == ("burn\\burn-compute\\src\\compute.rs", 77)
    # Prose about a panic names no place in that form.
    assert no_events("it panicked at startup: the window never opened\n")


# An OSError's text re-printed without its class


def test_an_os_error_s_text_without_its_class_is_the_class_its_errno_makes() -> None:
    # https://github.com/Appsynergy-io/CVE-2023-44487/issues/2
    [event] = extract_events("An error occurred: [Errno 104] Connection reset by peer\n" * 4)
    assert (event.error_type, event.message, event.count) == (
        "ConnectionResetError",
        "[Errno 104] Connection reset by peer",
        4,
    )
    # https://github.com/mvdctop/Movie_Data_Capture/issues/105: Windows' code, its text in Chinese
    event = one("Error in AVDC_Main: [WinError 5] 拒绝访问。: 'xxx/Backdrop.jpg'\n")
    assert (event.error_type, event.message) == ("PermissionError", "[Errno 13] Permission denied: 'xxx/Backdrop.jpg'")
    # https://github.com/InternLM/xtuner/issues/950: re-logged in quotes by an application's logger
    event = one(
        "10/16 17:09:29 - mmengine - WARNING - WARNING: command error: '[WinError 2] 系统找不到指定的文件。'!\n"
    )
    assert (event.error_type, event.message) == ("FileNotFoundError", "[Errno 2] No such file or directory")


def test_an_os_error_s_repr_in_a_log_or_a_sentence_is_that_os_error() -> None:
    event = one("请问在本地上能正常，但是test出现   ConnectionRefusedError(111, 'Connection refused')  是什么情况\n")
    assert (event.error_type, event.message) == ("ConnectionRefusedError", "[Errno 111] Connection refused")
    event = one(
        "Caused by SSLError(SSLError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed (_ssl.c:833)')\n"
    )
    assert (event.error_type, event.message) == (
        "ssl.SSLError",
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed (_ssl.c:833)",
    )
    event = one("got OSError(28, 'No space left on device') while saving\n")
    assert (event.error_type, event.message) == ("OSError", "[Errno 28] No space left on device")
    # A class and errno that disagree, or a class not known to be an OSError's, is not read as one.
    assert no_events("FileNotFoundError(13, 'Permission denied') is what the mock returns\n")
    assert no_events("raise ParseError(3, 'unexpected token') from None\n")


def test_an_errno_named_in_a_sentence_or_a_retry_is_no_error() -> None:
    assert no_events("see [Errno 2] in the docs for what it means\n")
    assert no_events(
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection "
        "broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to "
        "establish a new connection: [Errno 111] Connection refused')': /simple/torch/\n"
    )
